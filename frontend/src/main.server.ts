import { CSP_NONCE } from '@angular/core';
import { type BootstrapContext, bootstrapApplication } from '@angular/platform-browser';
import { renderApplication } from '@angular/platform-server';
import type { PageContext, PageDataAnswer } from '@checkin/contract';
import { App } from './app/app';
import { serverConfig } from './app/app.config.server';
import { SERVER_PAGE_CONTEXT } from './app/core/page-context';
import { SERVER_PAGE_DATA } from './app/core/preloaded-data';

/**
 * The server entry: the service (backend/src/app/pages/page-renderer.ts) imports the built
 * `dist/frontend/server/main.server.mjs` and calls `renderPage` for the owner pages
 * (docs/performance.md, "Server-rendered owner pages").
 */
const bootstrap = (context: BootstrapContext) => bootstrapApplication(App, serverConfig, context);
export default bootstrap;

export interface PageRenderRequest {
  /** `index.server.html` as the build wrote it. */
  document: string;
  /** The page's path and query, as the browser asked for it. */
  url: string;
  /** This response's CSP nonce: the inline scripts hydration needs carry it. */
  nonce: string;
  /** The page's first data, or null when it has none (a link without its checksum, say). */
  pageData: PageDataAnswer | null;
  /** Whom to contact and the zone of dates: what the app would otherwise ask for after it starts. */
  context: PageContext;
}

/** Renders one page to HTML; every inline script in it carries `nonce`. */
export async function renderPage({
  document,
  url,
  nonce,
  pageData,
  context,
}: PageRenderRequest): Promise<string> {
  const html = await renderApplication(bootstrap, {
    document: withNonce(document, nonce),
    url,
    platformProviders: [
      { provide: CSP_NONCE, useValue: nonce },
      { provide: SERVER_PAGE_DATA, useValue: pageData },
      { provide: SERVER_PAGE_CONTEXT, useValue: context },
    ],
  });
  // The event-dispatch script is inlined by the build and the transfer state by the render: each
  // gets the nonce too (the state is JSON, never run, but "every inline script has the nonce" is
  // a rule a test can check without exceptions).
  // The global stylesheet, inlined by the service (page-renderer.ts), gets it like Angular's
  // component styles have it.
  return html
    .replace(/<script(?![^>]*\snonce=)(?![^>]*\ssrc=)/g, `<script nonce="${nonce}"`)
    .replace(/<style(?![^>]*\snonce=)(?=[\s>])/g, `<style nonce="${nonce}"`);
}

/** `ngCspNonce` on the root element is where Angular in the browser reads the nonce from. */
function withNonce(document: string, nonce: string): string {
  return document.replace('<app-root', `<app-root ngCspNonce="${nonce}"`);
}
