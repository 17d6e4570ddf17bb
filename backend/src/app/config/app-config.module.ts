import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, registerAs } from '@nestjs/config';
import { APP_CONFIG_NAMESPACE, type AppConfig } from './app-config';

/**
 * Provides the configuration the entry point loaded (main.ts; tests: test-app.ts) to every
 * module, as the @nestjs/config namespace `app` (`@Inject(APP_CONFIG)`). Nest's config module
 * neither reads nor writes the environment here: the value is loaded and checked once, before
 * Nest starts, so two apps in one process (the tests) each keep their own.
 */
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          ignoreEnvFile: true,
          validatePredefined: false,
          skipProcessEnv: true,
          load: [registerAs(APP_CONFIG_NAMESPACE, () => config)],
        }),
      ],
    };
  }
}
