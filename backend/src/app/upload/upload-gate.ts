import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { UploadErrors } from './upload-errors';

/** What a refused upload is told to wait: uploads finish within seconds. */
const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * The cap on uploads this instance reads at once (UPLOAD_MAX_IN_FLIGHT): each may hold up to
 * 5 MiB, so the cap bounds the memory uploads can take, whoever sends them.
 */
@Injectable()
export class UploadGate {
  private inFlight = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Takes a place or refuses with 429; the returned function gives the place back (once). */
  enter(): () => void {
    if (this.inFlight >= this.config.uploads.maxInFlight) throw UploadErrors.busy(BUSY_RETRY_AFTER_SECONDS);
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
    };
  }

  get current(): number {
    return this.inFlight;
  }
}
