import { bootstrapApplication } from '@angular/platform-browser';
import { App } from './app/app';
import { appConfig } from './app/app.config';
import { isServerRendered, startPageDataRequest } from './app/core/preloaded-data';
import { keepEarlyInput } from './early-input';

// A page the service rendered carries its data inside it, and may already hold the owner's first
// answers (docs/performance.md, "Server-rendered owner pages"). Any other page starts its data
// request before Angular boots: the data then loads while the page's lazy code downloads.
const serverRendered = isServerRendered(document);
const restoreEarlyInput = serverRendered ? keepEarlyInput(document) : null;
if (!serverRendered) startPageDataRequest(window.location);
bootstrapApplication(App, appConfig)
  // Stable: booted, the server's page hydrated and its early events replayed.
  .then((app) => app.whenStable())
  .then(() => {
    restoreEarlyInput?.();
    // When the app is running, for the phone benchmark (tools/bench/phone.mjs).
    performance.mark('checkin:app-stable');
  })
  .catch((error: unknown) => console.error(error));
