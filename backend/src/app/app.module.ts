import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { APP_CONFIG, type AppConfig } from './config/app-config';
import { AppConfigModule } from './config/app-config.module';
import { CrmModule } from './crm/crm.module';
import { GlobalExceptionFilter } from './errors/global-exception.filter';
import { FormModule } from './form/form.module';
import { HealthModule } from './health/health.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { ReadsThrottlerGuard, throttlerOptions } from './rate-limit/reads-throttler.guard';
import { RedisConnection } from './rate-limit/redis-connection';
import { MetricsModule } from './metrics/metrics.module';
import { ReportModule } from './report/report.module';
import { StaffReportModule } from './staff-report/staff-report.module';
import { UploadModule } from './upload/upload.module';

@Module({
  imports: [
    RateLimitModule,
    MetricsModule,
    ThrottlerModule.forRootAsync({
      imports: [RateLimitModule],
      inject: [APP_CONFIG, RedisConnection],
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
export class AppModule {
  /** The application with the configuration its entry point loaded (main.ts; tests: test-app.ts). */
  static forRoot(config: AppConfig): DynamicModule {
    return { module: AppModule, imports: [AppConfigModule.forRoot(config)] };
  }
}
