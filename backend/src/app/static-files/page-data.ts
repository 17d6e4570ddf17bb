import type { INestApplicationContext } from '@nestjs/common';
import {
  organizationChoicesUrl,
  ownerLinkFromQuery,
  type OwnerLinkParams,
  type PageDataAnswer,
  pageDataUrl,
} from '@checkin/contract';
import type { Request } from 'express';
import { clientAddress } from '../auth/owner-access.guard';
import { type OwnerAccess, OwnerAccessService } from '../auth/owner-access.service';
import { GlobalExceptionFilter } from '../errors/global-exception.filter';
import { FormDataService } from '../form/form-data.service';
import { OrganizationChoicesService } from '../form/organization-choices.service';
import { ReportService } from '../report/report.service';

/** The first data of the owner page at `pathname`, or null when the page has none (no link). */
export type PageDataReader = (
  pathname: string,
  search: string,
  request: Request,
) => Promise<PageDataAnswer | null>;

/**
 * Reads a server-rendered owner page's data in the process, as `GET /api/data` and
 * `GET /api/report` would answer it: the same checksum check (OwnerAccessService, with its
 * per-address failure limit), the same services, the same error bodies. The answer goes into the
 * rendered page, so the browser never requests it (docs/performance.md, "Server-rendered owner pages").
 * A link that names none of a person's several co-ops (ORG_REQUIRED) also carries the co-ops to
 * choose from, as `GET /api/organizations` would answer: the page lists them as it arrives.
 */
export function ownerPageData(app: INestApplicationContext): PageDataReader {
  const access = app.get(OwnerAccessService, { strict: false });
  const formData = app.get(FormDataService, { strict: false });
  const reports = app.get(ReportService, { strict: false });
  const choices = app.get(OrganizationChoicesService, { strict: false });
  const errors = new GlobalExceptionFilter();
  const choicesAnswer = async (link: OwnerLinkParams, request: Request): Promise<PageDataAnswer> => {
    const url = organizationChoicesUrl(link);
    try {
      return { url, status: 200, body: await choices.choicesFor(link, clientAddress(request)) };
    } catch (error: unknown) {
      const body = errors.toBody(error, request);
      return { url, status: body.statusCode, body };
    }
  };
  const loaders: Readonly<Record<string, (owner: OwnerAccess) => Promise<unknown>>> = {
    '/': (owner) => formData.load(owner),
    '/report': (owner) => reports.reportFor(owner.orgId),
  };
  return async (pathname, search, request) => {
    const url = pageDataUrl(pathname, search);
    const link = ownerLinkFromQuery(new URLSearchParams(search));
    const load = loaders[pathname];
    if (url === null || link === null || load === undefined) return null;
    try {
      // The link as the browser's data request would carry it (pageDataUrl: trimmed values).
      const owner = await access.authorize(link, clientAddress(request));
      return { url, status: 200, body: await load(owner) };
    } catch (error: unknown) {
      const body = errors.toBody(error, request);
      if (body.code !== 'ORG_REQUIRED') return { url, status: body.statusCode, body };
      return { url, status: body.statusCode, body, also: [await choicesAnswer(link, request)] };
    }
  };
}
