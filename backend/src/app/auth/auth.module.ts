import { Global, Module } from '@nestjs/common';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { MemoryRateLimitStore, RATE_LIMIT_STORE } from '../rate-limit/rate-limit.store';
import { OwnerAccessGuard } from './owner-access.guard';
import { OwnerAccessService } from './owner-access.service';
import { AdminKeyGuard, StaffKeyGuard } from './secret-key.guard';

@Global()
@Module({
  providers: [
    { provide: RATE_LIMIT_STORE, useFactory: () => new MemoryRateLimitStore() },
    RateLimitService,
    OwnerAccessService,
    OwnerAccessGuard,
    StaffKeyGuard,
    AdminKeyGuard,
  ],
  exports: [
    RATE_LIMIT_STORE,
    RateLimitService,
    OwnerAccessService,
    OwnerAccessGuard,
    StaffKeyGuard,
    AdminKeyGuard,
  ],
})
export class AuthModule {}
