import { MAX_PREVIEW_LINK_TTL_HOURS, type PreviewLinkRequest } from '@checkin/contract';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** POST /api/preview-link body (docs/decisions.md, "Preview links"), validated by the global ValidationPipe. */
export class PreviewLinkRequestBody implements PreviewLinkRequest {
  @IsInt({ message: 'contactId must be a whole number' })
  @Min(1, { message: 'contactId must be a positive contact id' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'contactId is too large' })
  contactId!: number;

  @IsOptional()
  @IsInt({ message: 'orgId must be a whole number' })
  @Min(1, { message: 'orgId must be a positive contact id' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'orgId is too large' })
  orgId?: number;

  @IsOptional()
  @IsInt({ message: 'ttlHours must be a whole number of hours' })
  @Min(0, { message: 'ttlHours must be 0 (never expires) or more' })
  @Max(MAX_PREVIEW_LINK_TTL_HOURS, {
    message: `ttlHours must be at most ${MAX_PREVIEW_LINK_TTL_HOURS} (a year)`,
  })
  ttlHours?: number;
}
