import type { INestApplicationContext } from '@nestjs/common';
import {
  organizationChoicesUrl,
  ownerLinkFromQuery,
  type OwnerLinkParams,
  type PageDataAnswer,
  pageAt,
  pageDataUrl,
  STAFF_PAGE_PATH,
  staffLinkFromQuery,
  staffReportUrl,
} from '@checkin/contract';
import type { Request } from 'express';
import { clientAddress } from '../auth/owner-access.guard';
import { OwnerAccessService } from '../auth/owner-access.service';
import { AppError } from '../errors/app-error';
import { GlobalExceptionFilter } from '../errors/global-exception.filter';
import { readFormData } from '../form/form.controller';
import { FormDataService } from '../form/form-data.service';
import { OrganizationChoicesService } from '../form/organization-choices.service';
import { readReport } from '../report/report.controller';
import { ReportService } from '../report/report.service';
import { StaffKeyGuard } from '../auth/secret-key.guard';
import { parseOrgId } from '../staff-report/staff-report.controller';
import { StaffReportService } from '../staff-report/staff-report.service';

interface OwnerPageServices {
  access: OwnerAccessService;
  formData: FormDataService;
  reports: ReportService;
}

/**
 * Each owner page's read, by the page's name (`PAGES`, @checkin/contract): its data route's own,
 * which the controllers export. page-table.spec.ts checks that every owner page has one.
 */
export const OWNER_PAGE_READS: Readonly<
  Record<string, (services: OwnerPageServices, link: OwnerLinkParams, address: string) => Promise<unknown>>
> = {
  form: ({ access, formData }, link, address) => readFormData(access, formData, link, address),
  report: ({ access, reports }, link, address) => readReport(access, reports, link, address),
};

/** The first data of the page at `pathname`, or null when the page has none (no link). */
export type PageDataReader = (
  pathname: string,
  search: string,
  request: Request,
) => Promise<PageDataAnswer | null>;

/**
 * Reads a server-rendered page's data in the process, as the API would answer it, with the same
 * checks, services and error bodies; the answer goes into the rendered page, so the browser never
 * requests it (docs/performance.md, "Server-rendered owner pages").
 *
 * - The form and the report: `GET /api/data` and `GET /api/report`, read by the very functions
 *   their controllers call (`readFormData`, `readReport`: the checksum check with its per-address
 *   failure limit, the reads alongside). A link that names none of a
 *   person's several co-ops (ORG_REQUIRED) also carries the co-ops to choose from, as
 *   `GET /api/organizations` would answer: the page lists them as it arrives.
 * - The staff page opened with its link: `GET /api/staff/report` for the link's organization,
 *   the link's key checked as that route checks its header (StaffKeyGuard: constant time, wrong
 *   keys counted per address). The key goes nowhere else (docs/performance.md, "The staff page
 *   rendered from its link").
 */
export function renderedPageData(app: INestApplicationContext): PageDataReader {
  const access = app.get(OwnerAccessService, { strict: false });
  const formData = app.get(FormDataService, { strict: false });
  const reports = app.get(ReportService, { strict: false });
  const choices = app.get(OrganizationChoicesService, { strict: false });
  const staffKeys = app.get(StaffKeyGuard, { strict: false });
  const staffReports = app.get(StaffReportService, { strict: false });
  const errors = new GlobalExceptionFilter();
  const answerOf = async (
    url: string,
    request: Request,
    read: () => Promise<unknown>,
  ): Promise<PageDataAnswer> => {
    try {
      return { url, status: 200, body: await read() };
    } catch (error: unknown) {
      return errorAnswer(url, error, request);
    }
  };
  /** The error as the API answers it: its body, status and `Retry-After`. */
  const errorAnswer = (url: string, error: unknown, request: Request): PageDataAnswer => {
    const body = errors.toBody(error, request);
    const retryAfterSeconds = error instanceof AppError ? error.extra.retryAfterSeconds : undefined;
    return {
      url,
      status: body.statusCode,
      body,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  };
  const staffPageData = (search: string, request: Request): Promise<PageDataAnswer> | null => {
    const link = staffLinkFromQuery(new URLSearchParams(search));
    if (link === null) return null;
    return answerOf(staffReportUrl(link.orgId), request, async () => {
      await staffKeys.authorize(request, link.key);
      return staffReports.report(parseOrgId(link.orgId));
    });
  };
  const choicesAnswer = (link: OwnerLinkParams, request: Request): Promise<PageDataAnswer> =>
    answerOf(organizationChoicesUrl(link), request, () => choices.choicesFor(link, clientAddress(request)));
  const services: OwnerPageServices = { access, formData, reports };
  return async (pathname, search, request) => {
    if (pathname === STAFF_PAGE_PATH) return staffPageData(search, request);
    const url = pageDataUrl(pathname, search);
    const link = ownerLinkFromQuery(new URLSearchParams(search));
    const read = OWNER_PAGE_READS[pageAt(pathname)?.name ?? ''];
    if (url === null || link === null || read === undefined) return null;
    try {
      // The link as the browser's data request would carry it (pageDataUrl: trimmed values).
      return { url, status: 200, body: await read(services, link, clientAddress(request)) };
    } catch (error: unknown) {
      const answer = errorAnswer(url, error, request);
      const code = (answer.body as { code?: string }).code;
      if (code !== 'ORG_REQUIRED') return answer;
      return { ...answer, also: [await choicesAnswer(link, request)] };
    }
  };
}
