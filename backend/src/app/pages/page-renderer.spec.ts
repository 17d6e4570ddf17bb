import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  withEntryAfterPaint,
  withLaterCode,
  withoutStaffScripts,
  withStylesheetsInlined,
} from './page-renderer';

describe('the rendered page template: the global stylesheet inside it', () => {
  let browserRoot: string;

  beforeEach(() => {
    browserRoot = mkdtempSync(join(tmpdir(), 'checkin-browser-'));
  });

  afterEach(() => {
    rmSync(browserRoot, { recursive: true, force: true });
  });

  it('puts the built stylesheet in a style element instead of the render-blocking link', () => {
    writeFileSync(
      join(browserRoot, 'styles-ABC123.css'),
      ':root{color-scheme:light dark}main{margin:0 auto}',
    );
    const template =
      '<head><title>t</title><link rel="stylesheet" href="styles-ABC123.css" crossorigin="anonymous" integrity="sha384-x"></head><body></body>';
    expect(withStylesheetsInlined(template, browserRoot)).toBe(
      '<head><title>t</title><style>:root{color-scheme:light dark}main{margin:0 auto}</style></head><body></body>',
    );
  });

  it('keeps the link when the file is missing or its text could close the element', () => {
    writeFileSync(join(browserRoot, 'styles-BAD.css'), 'a{}</style><script>alert(1)</script>');
    const missing = '<link rel="stylesheet" href="styles-GONE.css">';
    const closing = '<link rel="stylesheet" href="styles-BAD.css">';
    expect(withStylesheetsInlined(missing, browserRoot)).toBe(missing);
    expect(withStylesheetsInlined(closing, browserRoot)).toBe(closing);
  });

  it("leaves out the staff page's early-request script: rendered pages are owner pages", () => {
    const template =
      '<body><app-root></app-root><script src="early-staff-request-FNUM7JIC.js" defer="" crossorigin="anonymous" integrity="sha384-x"></script><script src="main-AB12.js" type="module"></script></body>';
    expect(withoutStaffScripts(template)).toBe(
      '<body><app-root></app-root><script src="main-AB12.js" type="module"></script></body>',
    );
  });
});

describe("an owner page's entry, after its first paint", () => {
  const template =
    '<head><title>t</title></head><body><app-root></app-root>' +
    '<link rel="modulepreload" href="chunk-A.js" integrity="sha384-a">' +
    '<script src="main-AB12.js" type="module" crossorigin="anonymous" integrity="sha384-m"></script></body>';

  it('takes the entry script and its preloads out of the page and puts the inline start in its head', () => {
    expect(withEntryAfterPaint(template, ' (function () {})();\n')).toEqual({
      document:
        '<head><title>t</title><script>(function () {})();</script></head><body><app-root></app-root></body>',
      entryCode:
        '<link rel="modulepreload" href="/chunk-A.js" integrity="sha384-a">' +
        '<script src="/main-AB12.js" type="module" crossorigin="anonymous" integrity="sha384-m"></script>',
    });
  });

  it('leaves the page as built when it links no entry or the start could close its element', () => {
    expect(withEntryAfterPaint('<head></head><body></body>', '0;')).toBeNull();
    expect(withEntryAfterPaint(template, 'x = "</script><script>alert(1)";')).toBeNull();
  });

  it('puts later code into the one inert template, made at the end of the head when missing', () => {
    const page = '<html><head><title>t</title></head><body></body></html>';
    const once = withLaterCode(page, '<script src="main-AB12.js" type="module"></script>');
    expect(once).toBe(
      '<html><head><title>t</title><template id="checkin-later-code"><script src="main-AB12.js" type="module"></script></template></head><body></body></html>',
    );
    expect(withLaterCode(once, '<link rel="modulepreload" href="/chunk-B.js">')).toBe(
      '<html><head><title>t</title><template id="checkin-later-code"><script src="main-AB12.js" type="module"></script><link rel="modulepreload" href="/chunk-B.js"></template></head><body></body></html>',
    );
    expect(withLaterCode(page, '')).toBe(page);
  });
});
