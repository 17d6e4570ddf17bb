import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ServeStaticModule } from '@nestjs/serve-static';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { appConfig, type AppConfig } from './config/app-config';
import { CrmModule } from './crm/crm.module';
import { GlobalExceptionFilter } from './errors/global-exception.filter';
import { FormModule } from './form/form.module';
import { HealthModule } from './health/health.module';
import { ReportModule } from './report/report.module';
import { StaffReportModule } from './staff-report/staff-report.module';
import { UploadModule } from './upload/upload.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, cache: true, load: [appConfig] }),
    ThrottlerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: AppConfig) => ({
        throttlers: [
          {
            name: 'reads',
            ttl: 60_000,
            limit: config.rateLimits.readsPerMinute,
            // Writes have their own per-contact limits (RateLimitService).
            skipIf: (context) => context.switchToHttp().getRequest<{ method: string }>().method !== 'GET',
          },
        ],
      }),
    }),
    ServeStaticModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: AppConfig) => [
        {
          rootPath: config.frontendDist,
          exclude: ['/api/{*path}'],
          serveStaticOptions: {
            index: 'index.html',
            fallthrough: true,
            // Hashed bundles may be cached for good; index.html must be fresh to find them.
            setHeaders: (response, path) =>
              response.setHeader(
                'Cache-Control',
                path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
              ),
          },
        },
      ],
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
    { provide: APP_GUARD, useClass: ThrottlerGuard },
  ],
})
export class AppModule {}
