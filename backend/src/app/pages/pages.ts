import type { INestApplicationContext } from '@nestjs/common';
import type { PageContext } from '@checkin/contract';
import type { AppConfig } from '../config/app-config';
import { CrmSiteService } from '../crm/crm-site.service';
import { pageReadLimiter } from '../rate-limit/reads-throttler.guard';
import { renderedPageData } from './page-data';
import { loadPageRenderer } from './page-renderer';
import { staticSite } from './static-site';

/**
 * Everything the service answers outside /api (docs/architecture.md, "Pages"): the built front
 * end's files, and the pages of the page table (page-table.ts), rendered here with their data
 * when the front end's server build is there; every page load counts against the reads limit.
 */
export function pages(app: INestApplicationContext, config: AppConfig) {
  const render = config.serverRendering ? loadPageRenderer(config.frontendDist) : null;
  const limitRead = pageReadLimiter(app);
  const pageContext = pageContextOf(app, config);
  return staticSite(
    config.frontendDist,
    render && { render, readPageData: renderedPageData(app), limitRead, pageContext },
    limitRead,
    pageContext,
  );
}

/**
 * Whom to contact (ORGANIZER_NAME, ORGANIZER_EMAIL) and the CRM site's zone, which every owner
 * page shows its dates in (docs/decisions.md, "Dates on owner pages"). A CRM that cannot be asked
 * leaves the zone unknown (null), and the page then uses the reader's.
 */
function pageContextOf(app: INestApplicationContext, config: AppConfig): () => Promise<PageContext> {
  const site = app.get(CrmSiteService, { strict: false });
  const organizer = { ...config.organizer };
  return async () => ({
    organizer,
    timeZone: await site.timeZone().catch(() => null),
  });
}
