import {
  ApplicationRef,
  type ComponentRef,
  createComponent,
  createEnvironmentInjector,
  EnvironmentInjector,
  inject,
  Injectable,
  type Binding,
  type Type,
} from '@angular/core';
import { provideAnimationsAsync } from '@angular/platform-browser/animations/async';

/**
 * Where the report's charts are created. ngx-charts binds @angular/animations triggers, which
 * need an animation renderer; the application provides none, since only chart pages need one,
 * and the renderer then loads with the first chart (provideAnimationsAsync).
 *
 * A chart is created as a root view of its own in this environment and attached to the
 * application: Angular runs the animation renderer's begin/end around the check of each root
 * view by that view's own renderer, and that is what plays animations and completes removals.
 * A chart nested in the page's view would be checked under the page's plain renderer instead.
 */
@Injectable({ providedIn: 'root' })
export class ChartEnvironment {
  private readonly injector = createEnvironmentInjector(
    [provideAnimationsAsync()],
    inject(EnvironmentInjector),
  );
  private readonly application = inject(ApplicationRef);

  /** Creates `component` inside `host`; the caller destroys the returned reference. */
  render<T>(component: Type<T>, host: Element, bindings: Binding[]): ComponentRef<T> {
    const chart = createComponent(component, {
      environmentInjector: this.injector,
      hostElement: host,
      bindings,
    });
    this.application.attachView(chart.hostView);
    return chart;
  }
}
