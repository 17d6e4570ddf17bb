#!/usr/bin/env node
/**
 * Takes the screenshots of docs/organizer-guide.md from a real CiviCRM with the extension
 * installed and the schema created (tools/civicrm/real-suite.mjs --keep leaves such a site), and
 * the built service (`nx run-many -t build -p frontend backend`), in headless Chromium.
 *
 *   CIVICRM_URL=http://127.0.0.1:8700 CIVICRM_API_KEY=... node tools/civicrm/organizer-guide-screenshots.mjs
 *
 * Optional: CIVICRM_ADMIN_USER/CIVICRM_ADMIN_PASS (admin / admin123pass), CRM_ACTIVITY_CUSTOM_GROUP
 * and CRM_CONTACT_CUSTOM_GROUP (as the schema installer printed them), CHROMIUM_PATH
 * (/usr/bin/chromium), SERVICE_PORT (3990). It seeds three co-ops with owners and check-ins on
 * that site (use a test site), points the extension's settings at a service it starts, and
 * writes docs/screenshots/organizer-*.png.
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const crmUrl = (process.env.CIVICRM_URL ?? '').replace(/\/+$/, '');
const apiKey = process.env.CIVICRM_API_KEY ?? '';
if (!crmUrl || !apiKey) throw new Error('set CIVICRM_URL and CIVICRM_API_KEY');
const activityGroup = process.env.CRM_ACTIVITY_CUSTOM_GROUP ?? 'Check_in_data_organizing_';
const contactGroup = process.env.CRM_CONTACT_CUSTOM_GROUP ?? 'Food_Co_op_Organizing';
const servicePort = Number(process.env.SERVICE_PORT ?? 3990);
const serviceUrl = `http://127.0.0.1:${servicePort}`;
const out = (name) => join(root, 'docs', 'screenshots', `organizer-${name}.png`);
const staffLinkKey = randomBytes(32).toString('base64url');
/** Staff file links through the extension's route are signed: the same key in the service and the extension. */
const fileLinkKey = randomBytes(32).toString('base64');

async function call(path, form) {
  const response = await fetch(`${crmUrl}${path}`, {
    method: 'POST',
    headers: {
      'X-Civi-Auth': `Bearer ${apiKey}`,
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  });
  const body = await response.json();
  if (!response.ok || body.is_error) throw new Error(`${path}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}
const api4 = async (entity, action, params) =>
  (await call(`/civicrm/ajax/api4/${entity}/${action}`, { params: JSON.stringify(params) })).values;
const api3 = (entity, action, params) =>
  call('/civicrm/ajax/rest', { entity, action, json: JSON.stringify(params) });

const local = (date) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(date);

async function seed() {
  const [type] = await api4('RelationshipType', 'get', {
    select: ['id'],
    where: [['name_a_b', '=', 'Primary Contact']],
  });
  const day = 86_400_000;
  const now = Date.now();
  const coops = [
    { org: 'Lakeview Food Co-op', first: 'Maya', last: 'Okafor', stage: 'feasibility', quarter: 2, days: 3 },
    {
      org: 'Northside Grocery Co-op',
      first: 'Sam',
      last: 'Lindqvist',
      stage: 'organizing',
      quarter: 0,
      days: 130,
    },
    { org: 'Hill Street Market', first: 'Rosa', last: 'Marín', stage: null, quarter: 1, days: 12 },
  ];
  const seeded = [];
  for (const coop of coops) {
    const [person] = await api4('Contact', 'create', {
      values: { contact_type: 'Individual', first_name: coop.first, last_name: coop.last },
    });
    await api4('Email', 'create', {
      values: { contact_id: person.id, email: `${coop.first.toLowerCase()}@example.org`, is_primary: true },
    });
    const [org] = await api4('Contact', 'create', {
      values: { contact_type: 'Organization', organization_name: coop.org },
    });
    await api4('Relationship', 'create', {
      values: {
        contact_id_a: person.id,
        contact_id_b: org.id,
        relationship_type_id: type.id,
        is_active: true,
      },
    });
    const checkIn = (when, extra) =>
      api4('Activity', 'create', {
        values: {
          'activity_type_id:name': 'Check-in (organizing)',
          'status_id:name': 'Completed',
          source_contact_id: person.id,
          target_contact_id: [org.id],
          activity_date_time: local(new Date(when)),
          subject: 'Quarterly check-in',
          ...extra,
        },
      });
    if (coop.stage) await checkIn(now - 200 * day, { [`${activityGroup}.Stage`]: coop.stage });
    for (let i = 0; i < coop.quarter; i += 1) {
      await checkIn(now - (coop.days + i * 7) * day, {
        [`${activityGroup}.Submission_ID`]: randomBytes(8).toString('hex'),
      });
    }
    if (coop.quarter === 0) {
      await checkIn(now - coop.days * day, {
        [`${activityGroup}.Submission_ID`]: randomBytes(8).toString('hex'),
      });
    }
    seeded.push({ ...coop, personId: person.id, orgId: org.id });
  }
  return seeded;
}

/** The administrator's session cookies (6.x names the login `identifier`, 5.81 `username`). */
async function logIn() {
  for (const name of ['identifier', 'username']) {
    const response = await fetch(`${crmUrl}/civicrm/ajax/api4/User/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Requested-With': 'XMLHttpRequest' },
      body: new URLSearchParams({
        params: JSON.stringify({
          [name]: process.env.CIVICRM_ADMIN_USER ?? 'admin',
          password: process.env.CIVICRM_ADMIN_PASS ?? 'admin123pass',
        }),
      }).toString(),
    });
    const cookies = response.headers.getSetCookie().map((cookie) => {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: crmUrl };
    });
    if (response.ok && cookies.length > 0) return cookies;
  }
  throw new Error('could not log in to CiviCRM');
}

function startService() {
  const child = spawn(process.execPath, [join(root, 'dist', 'backend', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(servicePort),
      PUBLIC_BASE_URL: serviceUrl,
      CRM_BASE_URL: crmUrl,
      CRM_API_KEY: apiKey,
      CRM_ACTIVITY_CUSTOM_GROUP: activityGroup,
      CRM_CONTACT_CUSTOM_GROUP: contactGroup,
      CRM_FILE_ROUTE: '/civicrm/checkin-file?id={id}',
      FILE_LINK_KEY: fileLinkKey,
      STAFF_REPORT_KEY: randomBytes(24).toString('base64url'),
      ADMIN_KEY: randomBytes(24).toString('base64url'),
      STAFF_LINK_KEY: staffLinkKey,
      LOG_REQUESTS: 'false',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the service stopped (${code})`)));
    child.stdout.on('data', async () => {
      const ready = await fetch(`${serviceUrl}/api/organizer`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) resolve(child);
    });
  });
}

const coops = await seed();
await api4('Setting', 'set', {
  values: {
    checkin_middleware_service_url: serviceUrl,
    checkin_middleware_link_hours: 720,
    checkin_middleware_staff_link_key: staffLinkKey,
    checkin_middleware_staff_link_minutes: 15,
    checkin_middleware_file_link_key: fileLinkKey,
  },
});
// The portfolio's saved searches are declared once the schema exists (docs/civicrm-setup.md).
await api3('System', 'flush', {});
const service = await startService();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  await context.addCookies(await logIn());

  // 1. A rendered message: CiviMail's preview of the quarterly mailing for one owner.
  const mailing = await api3('Mailing', 'create', {
    name: 'Quarterly check-in',
    subject: 'Your quarterly check-in, {contact.first_name}',
    body_html:
      "<p>Hello {contact.first_name},</p><p>It is time for this quarter's check-in for your co-op. It takes about ten minutes.</p>" +
      '<p><a href="{checkin.form_url}">Open your check-in form</a></p>' +
      '<p>Your earlier answers, as a report: <a href="{checkin.report_url}">{checkin.report_url}</a></p>',
    body_text:
      'Hello {contact.first_name},\n\nYour check-in form: {checkin.form_url}\nYour report: {checkin.report_url}\n',
  });
  const preview = await api3('Mailing', 'preview', { id: mailing.id, contact_id: coops[0].personId });
  const message = await context.newPage();
  await message.setContent(
    `<main style="font:15px/1.5 sans-serif;max-width:760px;margin:24px auto">` +
      `<p style="color:#555">Subject: <strong>${preview.values.subject}</strong></p><hr>${preview.values.body_html}</main>`,
  );
  await message.screenshot({ path: out('mailing-preview') });

  // 2. The organization's contact summary, with the action.
  await page.goto(`${crmUrl}/civicrm/contact/view?reset=1&cid=${coops[0].orgId}`);
  // The Actions menu opens by script, which the test pack lacks: a style rule shows it open.
  await page.addStyleTag({ content: '#crm-contact-actions-list { display: block !important; }' });
  await page.screenshot({ path: out('contact-summary-action') });

  // 3. Following it: the staff report, the token already out of the address.
  const action = await page.locator('a[href*="checkin-staff-report"]').first().getAttribute('href');
  await page.goto(new URL(action ?? '', crmUrl).href);
  await page.waitForURL((url) => url.origin === serviceUrl);
  await page.getByRole('heading', { name: coops[0].org }).first().waitFor();
  await page.waitForURL((url) => !url.searchParams.has('key'));
  await page.screenshot({ path: out('staff-report') });
  process.stdout.write(`staff report address after the link: ${page.url()}\n`);

  // 4. The portfolio: the display's rows as SearchDisplay.run answers them.
  for (const name of ['Checkin_portfolio', 'Checkin_portfolio_no_checkin_this_quarter']) {
    const rows = await api4('SearchDisplay', 'run', {
      savedSearch: name,
      display: name,
      filters: { id: coops.map((coop) => coop.orgId) },
    });
    const [display] = await api4('SearchDisplay', 'get', {
      select: ['label', 'settings'],
      where: [['name', '=', name]],
    });
    const headers = display.settings.columns.map((column) => `<th>${column.label ?? ''}</th>`).join('');
    const body = rows
      .map(
        (row) =>
          `<tr>${row.columns
            .map((column) =>
              column.links && column.val === undefined
                ? `<td>${column.links.map((link) => `<a href="#">${link.text}</a>`).join(' ')}</td>`
                : `<td>${Array.isArray(column.val) ? column.val.join(', ') : (column.val ?? '')}</td>`,
            )
            .join('')}</tr>`,
      )
      .join('');
    const table = await context.newPage();
    await table.setViewportSize({ width: 1000, height: 260 });
    await table.setContent(
      `<main style="font:14px/1.4 sans-serif;margin:16px"><h2 style="font-size:18px">${display.label}</h2>` +
        `<table style="border-collapse:collapse;width:100%" border="1" cellpadding="6"><thead style="background:#eee"><tr>${headers}</tr></thead><tbody>${body}</tbody></table></main>`,
    );
    await table.screenshot({
      path: out(name === 'Checkin_portfolio' ? 'portfolio' : 'portfolio-no-checkin'),
    });
  }
} finally {
  await browser.close();
  service.kill();
}
