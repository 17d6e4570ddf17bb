import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withoutStaffScripts, withStylesheetsInlined } from './page-renderer';

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
