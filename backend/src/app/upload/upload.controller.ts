import { Controller, HttpCode, HttpStatus, Inject, Post, Req, Res } from '@nestjs/common';
import type { UploadResponse } from '@checkin/contract';
import type { Request, Response } from 'express';
import { clientAddress } from '../auth/owner-access.guard';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { closeAfterAnswer, readUploadForm } from './upload-form';
import { UploadGate } from './upload-gate';
import { UploadService } from './upload.service';

/**
 * POST /api/upload. No guard and no multer interceptor: the checksum travels inside the
 * multipart body. Before a byte of the body is read: a place among the uploads in flight and
 * the per-address request limit. Then the text parts are read and checked (UploadService.admit)
 * before the file is, and the remaining rules run in order in UploadService.store.
 */
@Controller('api')
export class UploadController {
  constructor(
    private readonly uploads: UploadService,
    private readonly gate: UploadGate,
    private readonly rateLimits: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('upload')
  @HttpCode(HttpStatus.CREATED)
  async upload(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<UploadResponse> {
    const address = clientAddress(request);
    let leave: (() => void) | undefined;
    try {
      leave = this.gate.enter();
      await this.rateLimits.consumeUploadRequest(address);
      const form = await readUploadForm(request, {
        admit: (fields) => this.uploads.admit(fields, address),
        deadlineMs: this.config.uploads.deadlineMs,
        minBytesPerSecond: this.config.uploads.minBytesPerSecond,
      });
      return await this.uploads.store(form);
    } catch (error) {
      // Refused before the body was read to its end: the rest is not wanted, nor the connection.
      if (!request.complete) closeAfterAnswer(request, response);
      throw error;
    } finally {
      leave?.();
    }
  }
}
