import { expect, type Page, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DEMO_ORG_ID, DEMO_ORG_NAME } from '../../backend/src/app/crm/in-memory/demo-data';
import { startTheApp } from '../support/app-start';
import { OWNER_LINK, SCREENSHOTS, useBuiltService } from './suite-service';

/**
 * The built Angular app under the service's content security policy (docs/decisions.md, "Hardening"), in Chromium:
 * every page must render and run without one violation or console error. The service runs in
 * stub mode. Build first: `npx nx run-many -t build -p frontend backend`.
 */

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

declare global {
  interface Window {
    cspViolations?: Violation[];
  }
}

const service = useBuiltService({}, { screenshots: true });

/** Records CSP violations (from the first byte of every document) and console errors. */
async function watchPolicy(
  page: Page,
): Promise<{ consoleErrors: string[]; violations: () => Promise<Violation[]> }> {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations?.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
      });
    });
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return { consoleErrors, violations: () => page.evaluate(() => window.cspViolations ?? []) };
}

interface PolicyCase {
  name: string;
  path: string;
  /** Runs before the page is opened. */
  prepare?: (page: Page) => Promise<void>;
  use: (page: Page) => Promise<void>;
}

const PAGES: PolicyCase[] = [
  {
    name: 'form',
    path: `/?${OWNER_LINK}`,
    use: async (page: Page) => {
      await expect(page.getByRole('heading', { level: 1 })).toContainText(DEMO_ORG_NAME);
      await expect(page.getByRole('heading', { name: 'Your co-op', level: 2 })).toBeVisible();
      // The app starts when the owner acts: hydration's own errors would show from here.
      await startTheApp(page);
    },
  },
  {
    name: 'report',
    path: `/report?${OWNER_LINK}`,
    use: async (page: Page) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
      // The trend chart (ngx-charts) sets styles and draws SVG at run time: open one, in its stage
      // card (earlier stages' cards start collapsed).
      const stage = page.getByRole('button', { name: 'Stage 2 Feasibility', exact: true });
      if ((await stage.getAttribute('aria-expanded')) === 'false') await stage.click();
      const field = page
        .locator('app-field-entries')
        .filter({ has: page.getByRole('heading', { name: 'Member-owners', exact: true }) });
      await field.getByRole('button', { name: /earlier entries/ }).click();
      await expect(field.locator('figure.trend svg path.line')).toHaveCount(1);
      await page.waitForFunction(() =>
        document.getAnimations().every((animation) => animation.playState !== 'running'),
      );
    },
  },
  {
    name: 'staff',
    path: `/staff?orgId=${DEMO_ORG_ID}&key=demo`,
    use: async (page: Page) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
      await page.waitForFunction(() => performance.getEntriesByName('checkin:app-stable').length > 0);
    },
  },
  {
    // Reopened in its tab, the key comes from session storage: the page is built in the browser.
    name: 'reopened staff',
    path: `/staff?orgId=${DEMO_ORG_ID}`,
    prepare: async (page: Page) => {
      await page.addInitScript(() => sessionStorage.setItem('checkin.staffKey', 'demo'));
    },
    use: async (page: Page) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_ORG_NAME);
    },
  },
];

for (const { name, path, prepare, use } of PAGES) {
  test(`the ${name} page runs under the content security policy without a violation`, async ({ page }) => {
    const watch = await watchPolicy(page);
    await prepare?.(page);
    const response = await page.goto(`${service.url}${path}`);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(policy).toContain("frame-ancestors 'none'");
    // Inline scripts on server-rendered pages (Angular's early event capture and the page's data)
    // each carry this response's nonce, which the policy names; the browser-rendered staff page's
    // one inline script (its early data request) is allowed by its hash alone.
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    const html = await response!.text();
    const inlineScripts = [...html.matchAll(/<script\b(?![^>]*\ssrc=)[^>]*>/g)].map(([tag]) => tag);
    if (name === 'reopened staff') {
      expect(nonce).toBeUndefined();
      expect(inlineScripts).toEqual(['<script>']);
      const source = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
      const hash = createHash('sha256').update(source, 'utf8').digest('base64');
      expect(policy).toContain(`script-src 'self' 'sha256-${hash}';`);
    } else {
      expect(nonce).toMatch(/^[\w-]{24}$/);
      expect(inlineScripts.length).toBeGreaterThanOrEqual(2);
      for (const tag of inlineScripts) expect(tag).toContain(`nonce="${nonce}"`);
    }

    await use(page);
    await page.waitForLoadState('networkidle');

    expect(await watch.violations()).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `csp-${name.replace(/ /g, '-')}.png`), fullPage: true });
  });
}

test('the violation watch catches an inline script the policy blocks', async ({ page }) => {
  const watch = await watchPolicy(page);
  await page.goto(`${service.url}/?${OWNER_LINK}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(DEMO_ORG_NAME);

  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'document.body.dataset.inlineRan = "yes";';
    document.body.append(script);
    await new Promise((done) => setTimeout(done, 50));
    return document.body.dataset['inlineRan'] ?? 'no';
  });

  expect(ran).toBe('no');
  expect(await watch.violations()).toEqual([
    expect.objectContaining({ directive: 'script-src-elem', blocked: 'inline' }),
  ]);
  expect(watch.consoleErrors.some((error) => error.includes('Content Security Policy'))).toBe(true);
});

test('the pages cannot be framed by another site', async ({ page }) => {
  const refusal = page.waitForEvent('console', (message) =>
    message.text().includes("frame-ancestors 'none'"),
  );
  await page.setContent(`<iframe src="${service.url}/?${OWNER_LINK}" title="framed"></iframe>`);
  expect((await refusal).type()).toBe('error');
  await expect(page.frameLocator('iframe').getByRole('heading', { level: 1 })).toHaveCount(0);
});
