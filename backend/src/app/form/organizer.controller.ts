import { Controller, Get, Inject } from '@nestjs/common';
import type { OrganizerContact } from '@checkin/contract';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * GET /api/organizer: who an owner contacts when something goes wrong (ORGANIZER_NAME,
 * ORGANIZER_EMAIL). Public and link-free on purpose: the pages need it most when the owner's own
 * link fails. It holds nothing secret; each part is null when not set.
 */
@Controller('api')
export class OrganizerController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('organizer')
  organizer(): OrganizerContact {
    return { ...this.config.organizer };
  }
}
