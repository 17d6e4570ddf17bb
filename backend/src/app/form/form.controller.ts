import { Body, Controller, Get, HttpCode, HttpStatus, Post, Req, UseGuards } from '@nestjs/common';
import type { FormDataPayload, OwnerLinkParams, SubmitResponse } from '@checkin/contract';
import type { Request } from 'express';
import { clientAddress, linkParams, Owner, OwnerAccessGuard } from '../auth/owner-access.guard';
import { type OwnerAccess, OwnerAccessService } from '../auth/owner-access.service';
import { FormDataService } from './form-data.service';
import { SubmitService } from './submit.service';

/**
 * The owner's check-in form: GET /api/data?cid&cs&contactId&orgId loads it, POST /api/submit
 * records it. Submit runs after the guard has checked the link; the form's reads go out with the
 * link's check (OwnerAccessService.authorizeWith) and are answered only once it passed.
 */
@Controller('api')
export class FormController {
  constructor(
    private readonly formData: FormDataService,
    private readonly submissions: SubmitService,
    private readonly access: OwnerAccessService,
  ) {}

  @Get('data')
  data(@Req() request: Request): Promise<FormDataPayload> {
    return readFormData(this.access, this.formData, linkParams(request), clientAddress(request));
  }

  /** The body is validated against the field configuration in SubmitService, not by a DTO. */
  @Post('submit')
  @UseGuards(OwnerAccessGuard)
  @HttpCode(HttpStatus.CREATED)
  submit(@Owner() access: OwnerAccess, @Body() body: unknown): Promise<SubmitResponse> {
    return this.submissions.submit(access, body);
  }
}

/**
 * GET /api/data's read: the link's check with the form's reads alongside. The rendered form reads
 * its data with it too (backend/src/app/pages/page-data.ts), so the page and the API answer alike.
 */
export function readFormData(
  access: OwnerAccessService,
  formData: FormDataService,
  link: Partial<OwnerLinkParams>,
  address: string,
): Promise<FormDataPayload> {
  return access.authorizeWith(link, address, (owner, authorized) => formData.load(owner, authorized));
}
