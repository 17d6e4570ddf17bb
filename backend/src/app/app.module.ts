import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { appConfig } from './config/app-config';
import { CrmModule } from './crm/crm.module';
import { GlobalExceptionFilter } from './errors/global-exception.filter';
import { FormModule } from './form/form.module';
import { HealthModule } from './health/health.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { ReadsThrottlerGuard, throttlerOptions } from './rate-limit/reads-throttler.guard';
import { RedisConnection } from './rate-limit/redis-connection';
import { ReportModule } from './report/report.module';
import { StaffReportModule } from './staff-report/staff-report.module';
import { UploadModule } from './upload/upload.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, cache: true, load: [appConfig] }),
    RateLimitModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitModule],
      inject: [appConfig.KEY, RedisConnection],
      useFactory: throttlerOptions,
    }),
    CrmModule,
    AuthModule,
    FormModule,
    UploadModule,
    ReportModule,
    StaffReportModule,
    HealthModule,
    AdminModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: GlobalExceptionFilter },
    { provide: APP_GUARD, useClass: ReadsThrottlerGuard },
  ],
})
export class AppModule {}
