import { Global, Module } from '@nestjs/common';
import { OwnerAccessGuard } from './owner-access.guard';
import { OwnerAccessService } from './owner-access.service';
import { AdminKeyGuard, StaffKeyGuard } from './secret-key.guard';

/** Owner links (cid/cs) and the staff and admin keys. Rate limits come from RateLimitModule. */
@Global()
@Module({
  providers: [OwnerAccessService, OwnerAccessGuard, StaffKeyGuard, AdminKeyGuard],
  exports: [OwnerAccessService, OwnerAccessGuard, StaffKeyGuard, AdminKeyGuard],
})
export class AuthModule {}
