import { Body, Controller, Get, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import type { FormDataPayload, SubmitResponse } from '@checkin/contract';
import { Owner, OwnerAccessGuard } from '../auth/owner-access.guard';
import type { OwnerAccess } from '../auth/owner-access.service';
import { FormDataService } from './form-data.service';
import { SubmitService } from './submit.service';

/**
 * The owner's check-in form: GET /api/data?cid&cs&contactId&orgId loads it, POST /api/submit
 * records it. The guard has checked the link before either handler runs.
 */
@Controller('api')
@UseGuards(OwnerAccessGuard)
export class FormController {
  constructor(
    private readonly formData: FormDataService,
    private readonly submissions: SubmitService,
  ) {}

  @Get('data')
  data(@Owner() access: OwnerAccess): Promise<FormDataPayload> {
    return this.formData.load(access);
  }

  /** The body is validated against the field configuration in SubmitService, not by a DTO. */
  @Post('submit')
  @HttpCode(HttpStatus.CREATED)
  submit(@Owner() access: OwnerAccess, @Body() body: unknown): Promise<SubmitResponse> {
    return this.submissions.submit(access, body);
  }
}
