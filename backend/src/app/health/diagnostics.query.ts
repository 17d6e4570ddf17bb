import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** GET /api/health query: an optional contact whose relationships to check. */
export class DiagnosticsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'contactId must be a whole number' })
  @Min(1, { message: 'contactId must be a positive contact id' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'contactId is too large' })
  contactId?: number;
}
