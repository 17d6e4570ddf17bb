import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { type BenchFigure, reportBench, round } from './bench-output';

/**
 * What the browser downloads for the form page, from the production build: the initial scripts
 * index.html names (script and modulepreload), then the form page's lazy chunk and every chunk
 * it imports. Sizes are gzipped (level 9 and zlib's default). The chart library must appear in
 * none of these, only in the chunks the report page loads.
 */

const ROOT = join(__dirname, '..', '..');
const BROWSER_DIST = join(ROOT, 'dist', 'frontend', 'browser');
const FORM_PAGE_BUDGET_KB = 150;
/** Strings only chart code holds: ngx-charts' selectors and class names, d3-scale's band scale. */
const CHART_MARKERS = ['ngx-charts', 'paddingInner'];
const PAGES = ['FormPage', 'ReportPage', 'StaffPage'] as const;
/** Component selectors only the report's or the staff page's code holds. */
const OTHER_PAGE_MARKERS = ['app-field-entries', 'app-trend-chart', 'app-staff-section', 'app-staff-matrix'];

type Page = (typeof PAGES)[number];

interface ChunkGraph {
  initial: string[];
  /** Lazy entry chunk of each page, from the router's `import("./chunk-….js").then(m => m.Page)`. */
  pageEntries: Map<Page, string>;
}

function ensureFrontendBuilt(): void {
  if (existsSync(join(BROWSER_DIST, 'index.html'))) return;
  execFileSync(join(ROOT, 'node_modules', '.bin', 'nx'), ['build', 'frontend', '--output-style=static'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
}

function read(file: string): string {
  return readFileSync(join(BROWSER_DIST, file), 'utf8');
}

function initialScripts(indexHtml: string): string[] {
  const scripts = [...indexHtml.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)].map((match) => match[1] ?? '');
  const preloads = [...indexHtml.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map(
    (match) => match[1] ?? '',
  );
  return [...new Set([...scripts, ...preloads])];
}

function staticImports(source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)].map((match) => match[1] ?? '');
}

function dynamicImports(source: string): string[] {
  return [...source.matchAll(/import\(\s*"\.\/([\w.-]+\.js)"\s*\)/g)].map((match) => match[1] ?? '');
}

/** `files` and everything they import, statically only or also lazily. */
function closure(files: string[], { lazy }: { lazy: boolean }): Set<string> {
  const seen = new Set<string>();
  const pending = [...files];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = read(file);
    pending.push(...staticImports(source), ...(lazy ? dynamicImports(source) : []));
  }
  return seen;
}

function chunkGraph(): ChunkGraph {
  const initial = [...closure(initialScripts(read('index.html')), { lazy: false })];
  const pageEntries = new Map<Page, string>();
  for (const file of initial) {
    for (const match of read(file).matchAll(
      /import\(\s*"\.\/([\w.-]+\.js)"\s*\)\.then\(\(?(\w+)\)?=>\2\.(\w+)\)/g,
    )) {
      const page = PAGES.find((name) => name === match[3]);
      if (page && match[1]) pageEntries.set(page, match[1]);
    }
  }
  return { initial, pageEntries };
}

interface Size {
  raw: number;
  gzip9: number;
  gzipDefault: number;
}

function sizeOf(files: Iterable<string>): Size {
  const total: Size = { raw: 0, gzip9: 0, gzipDefault: 0 };
  for (const file of files) {
    const bytes = readFileSync(join(BROWSER_DIST, file));
    total.raw += bytes.byteLength;
    total.gzip9 += gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).byteLength;
    total.gzipDefault += gzipSync(bytes).byteLength;
  }
  return total;
}

/** Bytes as the service sends them to a browser that accepts Brotli: the build's .br files. */
function brotliSize(files: Iterable<string>): number {
  let total = 0;
  for (const file of files) {
    const compressed = join(BROWSER_DIST, `${file}.br`);
    total += readFileSync(existsSync(compressed) ? compressed : join(BROWSER_DIST, file)).byteLength;
  }
  return total;
}

function otherPageChunks(files: Iterable<string>): string[] {
  return [...files].filter((file) => OTHER_PAGE_MARKERS.some((marker) => read(file).includes(marker)));
}

/**
 * What the initial chunks are made of, by package, from esbuild's metafile (the build writes
 * dist/frontend/stats.json): kB of minified output each.
 */
function initialComposition(initial: string[]): Record<string, number> {
  const stats = join(BROWSER_DIST, '..', 'stats.json');
  if (!existsSync(stats)) return {};
  const metafile = JSON.parse(readFileSync(stats, 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  const byPackage = new Map<string, number>();
  for (const file of initial) {
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[file]?.inputs ?? {})) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const name = match?.[1] ?? 'the app';
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  return Object.fromEntries(
    [...byPackage].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => [name, kB(bytes)]),
  );
}

function chartChunks(files: Iterable<string>): string[] {
  return [...files].filter((file) => {
    const source = read(file);
    return CHART_MARKERS.some((marker) => source.includes(marker));
  });
}

const kB = (bytes: number) => round(bytes / 1000, 1);

describe('front-end bundle', () => {
  beforeAll(() => ensureFrontendBuilt(), 600_000);

  it('keeps the form page small and chart code out of it', () => {
    const { initial, pageEntries } = chunkGraph();
    const formEntry = pageEntries.get('FormPage');
    const reportEntry = pageEntries.get('ReportPage');
    expect({ formEntry, reportEntry }).toEqual({
      formEntry: expect.any(String),
      reportEntry: expect.any(String),
    });

    const formPage = closure([...initial, formEntry ?? ''], { lazy: false });
    const reportPage = closure([...initial, reportEntry ?? ''], { lazy: true });
    const initialSize = sizeOf(initial);
    const formSize = sizeOf(formPage);
    const chartsInFormPage = chartChunks(formPage);
    const chartsInReportPage = chartChunks(reportPage);
    const allChunks = closure([...initial, ...pageEntries.values()], { lazy: true });
    const chartsOutsideReport = chartChunks(allChunks).filter((file) => !reportPage.has(file));
    const otherPagesInFormPage = otherPageChunks(formPage);
    const staffEntry = pageEntries.get('StaffPage');
    const otherPagesOwnChunks = otherPageChunks([reportEntry ?? '', staffEntry ?? ''].filter(Boolean));
    const formBrotli = brotliSize(formPage);

    const rows = [
      {
        scope: 'initial (index.html scripts and preloads)',
        files: initial.length,
        ...kilobytes(initialSize),
      },
      { scope: 'form page (initial + its lazy chunks)', files: formPage.size, ...kilobytes(formSize) },
    ];
    const figures: BenchFigure[] = [
      {
        figure: 'Front end: JavaScript of the form page, gzipped',
        value: kB(formSize.gzipDefault),
        unit: 'kB',
        target: { max: FORM_PAGE_BUDGET_KB },
      },
      {
        figure: 'Front end: JavaScript of the form page as served (precompressed Brotli)',
        value: kB(formBrotli),
        unit: 'kB',
        target: {},
      },
      {
        figure: 'Front end: chunks with report or staff page code loaded by the form page',
        value: otherPagesInFormPage.length,
        unit: 'chunks',
        target: { max: 0 },
      },
      {
        figure: 'Front end: chart chunks loaded by the form page',
        value: chartsInFormPage.length,
        unit: 'chunks',
        target: { max: 0 },
      },
    ];
    reportBench('frontend-bundle', rows, {
      chartChunks: {
        formPage: chartsInFormPage,
        reportPage: chartsInReportPage,
        outsideReport: chartsOutsideReport,
      },
      otherPageCode: { formPage: otherPagesInFormPage },
      initialByPackageKB: initialComposition(initial),
      formPageBrotliKB: kB(formBrotli),
      // What Angular's raw-size `initial` budget must be to stand for the gzip target.
      rawBytesPerGzipByte: round(initialSize.raw / initialSize.gzipDefault, 2),
      figures,
    });

    expect(chartsInReportPage.length).toBeGreaterThan(0);
    // The markers must be found where they belong, or their absence from the form page means nothing.
    expect(otherPagesOwnChunks).toHaveLength(2);
    expect(chartsOutsideReport).toEqual([]);
  });
});

function kilobytes(size: Size) {
  return { 'raw kB': kB(size.raw), 'gzip -9 kB': kB(size.gzip9), 'gzip kB': kB(size.gzipDefault) };
}
