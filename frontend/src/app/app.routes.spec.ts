import { PAGES } from '@checkin/contract';
import { routes } from './app.routes';

describe('the app routes', () => {
  it('give every page of the page list its lazy component, at its address, and nothing else but "not found"', () => {
    const pageRoutes = routes.filter((route) => route.path !== '**');
    expect(pageRoutes.map((route) => `/${route.path}`)).toEqual(PAGES.map((page) => page.path));
    for (const route of pageRoutes) expect(typeof route.loadComponent).toBe('function');
    expect(routes.at(-1)?.path).toBe('**');
  });

  it('load each page’s own component', async () => {
    const names = await Promise.all(
      routes
        .filter((route) => route.path !== '**')
        .map(async (route) => {
          const component = (await route.loadComponent!()) as { name: string };
          return component.name;
        }),
    );
    expect(names).toEqual(PAGES.map((page) => `${page.name[0]!.toUpperCase()}${page.name.slice(1)}Page`));
  });
});
