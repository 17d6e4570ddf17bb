import { Body, Controller, HttpCode, HttpStatus, Post, Req, UseGuards } from '@nestjs/common';
import type { PreviewLinkResponse } from '@checkin/contract';
import type { Request } from 'express';
import { clientAddress } from '../auth/owner-access.guard';
import { AdminKeyGuard } from '../auth/secret-key.guard';
import { PreviewLinkRequestBody } from './preview-link.request';
import { PreviewLinkService } from './preview-link.service';

/**
 * POST /api/preview-link (docs/decisions.md, "Preview links"), for admins with `X-Admin-Key`. Answers 200: the links
 * are computed, nothing is stored.
 */
@Controller('api/preview-link')
@UseGuards(AdminKeyGuard)
export class PreviewLinkController {
  constructor(private readonly previewLinks: PreviewLinkService) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  create(@Body() body: PreviewLinkRequestBody, @Req() request: Request): Promise<PreviewLinkResponse> {
    return this.previewLinks.create(body, clientAddress(request));
  }
}
