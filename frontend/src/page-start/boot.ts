import { bootstrapApplication } from '@angular/platform-browser';
import { App } from '../app/app';
import { appConfig } from '../app/app.config';
import { startPageDataRequest } from '../app/core/preloaded-data';

/**
 * Starts Angular (main.ts decides when: docs/performance.md, "The app starts when the owner
 * acts"). A browser-rendered page starts its data request first, so the data loads while the
 * page's lazy code downloads; a server-rendered one has its data inside. `onStable` runs once the
 * app is stable: booted, the server's page hydrated and its early events replayed.
 */
export function boot({ serverRendered, onStable }: { serverRendered: boolean; onStable: () => void }): void {
  if (!serverRendered) startPageDataRequest(window.location);
  bootstrapApplication(App, appConfig)
    .then((app) => app.whenStable())
    .then(() => {
      onStable();
      // When the app is running, for the phone benchmark (tools/bench/phone.mjs).
      performance.mark('checkin:app-stable');
    })
    .catch((error: unknown) => console.error(error));
}
