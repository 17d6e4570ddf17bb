import {
  type ApplicationConfig,
  provideBrowserGlobalErrorListeners,
  provideZonelessChangeDetection,
} from '@angular/core';
import { provideHttpClient, withInterceptors } from '@angular/common/http';
import { provideClientHydration, withEventReplay, withNoHttpTransferCache } from '@angular/platform-browser';
import { provideRouter, withComponentInputBinding } from '@angular/router';
import { routes } from './app.routes';
import { apiErrorInterceptor } from './core/api-error.interceptor';
import { providePageContext } from './core/page-context';

export const appConfig: ApplicationConfig = {
  providers: [
    provideBrowserGlobalErrorListeners(),
    provideZonelessChangeDetection(),
    provideRouter(routes, withComponentInputBinding()),
    // The XHR backend (not withFetch): only it reports upload progress, which the form shows.
    provideHttpClient(withInterceptors([apiErrorInterceptor])),
    // The owner pages arrive rendered by the service; the browser takes that DOM over instead of
    // redrawing it, and replays what the owner typed or clicked before the code had run. The page's
    // data travels in the page through PreloadedData, not through HttpClient's transfer cache.
    provideClientHydration(withEventReplay(), withNoHttpTransferCache()),
    // Whom to contact and the zone of dates, as the service rendered the page with them.
    providePageContext(),
  ],
};
