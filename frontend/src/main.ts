import { bootstrapApplication } from '@angular/platform-browser';
import { App } from './app/app';
import { appConfig } from './app/app.config';
import { startPageDataRequest } from './app/core/preloaded-data';

// Before Angular boots: the data then loads while the page's lazy code downloads.
startPageDataRequest(window.location);
bootstrapApplication(App, appConfig).catch((error: unknown) => console.error(error));
