import { Controller, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import type { UploadResponse } from '@checkin/contract';
import type { Request, Response } from 'express';
import { clientAddress } from '../auth/owner-access.guard';
import { closeAfterAnswer, readUploadForm } from './upload-form';
import { UploadService } from './upload.service';

/**
 * POST /api/upload. No guard and no multer interceptor: the checksum travels inside the
 * multipart body, and the spec's rules start with it, so the body is read first (bounded) and
 * the rules then run in order in UploadService.
 */
@Controller('api')
export class UploadController {
  constructor(private readonly uploads: UploadService) {}

  @Post('upload')
  @HttpCode(HttpStatus.CREATED)
  async upload(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<UploadResponse> {
    try {
      return await this.uploads.store(await readUploadForm(request), clientAddress(request));
    } catch (error) {
      // Refused before the body was read to its end: the rest is not wanted, nor the connection.
      if (!request.complete) closeAfterAnswer(request, response);
      throw error;
    }
  }
}
