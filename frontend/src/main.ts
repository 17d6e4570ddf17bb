import { bootstrapApplication } from '@angular/platform-browser';
import { App } from './app/app';
import { appConfig } from './app/app.config';
import { isServerRendered, startPageDataRequest } from './app/core/preloaded-data';

// Before Angular boots: the data then loads while the page's lazy code downloads. A page the
// service rendered carries its data inside it (docs/performance.md, "Server-rendered owner pages").
if (!isServerRendered(document)) startPageDataRequest(window.location);
bootstrapApplication(App, appConfig).catch((error: unknown) => console.error(error));
