import { FORM_ID, LATER_CODE_ELEMENT_ID, STAFF_KEY_STORAGE_ITEM } from '@checkin/contract';
import {
  afterLoad,
  hasSavedDraft,
  isServerRendered,
  moveStaffKeyOutOfAddress,
  OWNER_ACTIONS,
  ownerActedBefore,
  preloadLaterCode,
  startWhenOwnerActs,
} from './page-start';

function newPage(body = ''): Document {
  const page = document.implementation.createHTMLDocument('page');
  page.body.innerHTML = body;
  return page;
}

describe('page start', () => {
  it('tells a server-rendered page by the mark Angular puts on its root', () => {
    const page = newPage('<app-root></app-root>');
    expect(isServerRendered(page)).toBe(false);
    page.querySelector('app-root')!.setAttribute('ng-server-context', 'ssr');
    expect(isServerRendered(page)).toBe(true);
  });

  it.each(OWNER_ACTIONS)('starts the app once, on the first %s, and no more after', (type) => {
    const page = newPage('<main><input id="field"></main>');
    const start = jest.fn();
    startWhenOwnerActs(page, start);
    expect(start).not.toHaveBeenCalled();
    page.getElementById('field')!.dispatchEvent(new Event(type, { bubbles: true }));
    expect(start).toHaveBeenCalledTimes(1);
    for (const other of OWNER_ACTIONS)
      page.getElementById('field')!.dispatchEvent(new Event(other, { bubbles: true }));
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('does not start the app on what the owner does not do: scrolling, the mouse passing by, the page loading', () => {
    const page = newPage('<main><input id="field"></main>');
    const start = jest.fn();
    startWhenOwnerActs(page, start);
    for (const type of ['scroll', 'mousemove', 'pointerover', 'load', 'DOMContentLoaded', 'visibilitychange'])
      page.getElementById('field')!.dispatchEvent(new Event(type, { bubbles: true }));
    expect(start).not.toHaveBeenCalled();
  });

  it('knows the owner acted before its code ran: events held by the early capture, or a field focused', () => {
    const page = newPage('<main><input id="field"></main>');
    // Angular's early capture, as far as it matters here (its full type is Angular's own).
    const capture: { document: Document; _ejsas?: Record<string, { q: unknown[] }> } = { document: page };
    const view = capture as unknown as Window;
    expect(ownerActedBefore(view)).toBe(false);
    capture._ejsas = { ng: { q: [] } };
    expect(ownerActedBefore(view)).toBe(false);
    capture._ejsas = { ng: { q: [{ eventType: 'click' }] } };
    expect(ownerActedBefore(view)).toBe(true);
    // A focused field (jsdom focuses only in its own window's document).
    document.body.innerHTML = '<main><input id="field"></main>';
    expect(ownerActedBefore(window)).toBe(false);
    document.getElementById('field')!.focus();
    expect(ownerActedBefore(window)).toBe(true);
    document.body.innerHTML = '';
  });

  it('moves the inert code preloads into the head, once', () => {
    const page = newPage();
    page.head.innerHTML = `<title>t</title><template id="${LATER_CODE_ELEMENT_ID}"><link rel="modulepreload" href="/chunk-A.js"><link rel="modulepreload" href="/chunk-B.js"></template>`;
    // Inside the template the links are not part of the page: nothing fetches them.
    expect(page.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
    preloadLaterCode(page);
    const hrefs = [...page.head.querySelectorAll('link[rel="modulepreload"]')].map((link) =>
      link.getAttribute('href'),
    );
    expect(hrefs).toEqual(['/chunk-A.js', '/chunk-B.js']);
    expect(page.getElementById(LATER_CODE_ELEMENT_ID)).toBeNull();
    preloadLaterCode(page);
    expect(page.head.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(2);
  });

  it('does nothing on a page without code to preload', () => {
    const page = newPage('<p>page</p>');
    preloadLaterCode(page);
    expect(page.head.querySelectorAll('link')).toHaveLength(0);
  });

  it("knows a saved draft of the form by its key, whoever's it is", () => {
    const storage = window.localStorage;
    storage.clear();
    expect(hasSavedDraft(storage)).toBe(false);
    storage.setItem('checkin.other', 'x');
    expect(hasSavedDraft(storage)).toBe(false);
    storage.setItem(`${FORM_ID}:102:101`, '{}');
    expect(hasSavedDraft(storage)).toBe(true);
    storage.clear();
    expect(hasSavedDraft(null)).toBe(false);
    const refusing = {
      get length(): number {
        throw new DOMException('denied', 'SecurityError');
      },
      key: () => null,
    };
    expect(hasSavedDraft(refusing)).toBe(false);
  });

  it('runs after the load, or at once when the page has loaded', () => {
    const then = jest.fn();
    // jsdom's page has loaded by the time tests run.
    afterLoad(window, then);
    expect(then).toHaveBeenCalledTimes(1);
    const loading = {
      document: { readyState: 'loading' },
      addEventListener: jest.fn(),
    } as unknown as Window;
    const later = jest.fn();
    afterLoad(loading, later);
    expect(later).not.toHaveBeenCalled();
    expect(loading.addEventListener).toHaveBeenCalledWith('load', later, { once: true });
  });

  describe('the staff link’s key', () => {
    /** A window at `href` whose session storage works, or refuses when `storage` is null. */
    function windowAt(href: string, storage: Map<string, string> | null) {
      const location = new URL(href);
      const replaceState = jest.fn((_state: unknown, _unused: string, url: string) => {
        const next = new URL(url, location);
        location.search = next.search;
        location.hash = next.hash;
      });
      const sessionStorage = {
        setItem: (item: string, value: string) => {
          if (storage === null) throw new DOMException('refused', 'SecurityError');
          storage.set(item, value);
        },
      };
      return {
        window: {
          location,
          history: { state: { kept: true }, replaceState },
          sessionStorage,
        } as unknown as Window,
        location,
        replaceState,
      };
    }

    it('moves into the tab’s session storage and out of the address, the rest of the address kept', () => {
      const storage = new Map<string, string>();
      const { window, location, replaceState } = windowAt(
        'https://checkin.example/staff?orgId=7&key=s3cr%2Bt&x=1#top',
        storage,
      );
      moveStaffKeyOutOfAddress(window);
      expect(storage.get(STAFF_KEY_STORAGE_ITEM)).toBe('s3cr+t');
      expect(replaceState).toHaveBeenCalledWith({ kept: true }, '', '/staff?orgId=7&x=1#top');
      expect(location.href).toBe('https://checkin.example/staff?orgId=7&x=1#top');
    });

    it('stays for the app where storage is refused, and is left alone on other pages or when empty', () => {
      for (const href of [
        'https://checkin.example/staff?orgId=7&key=s3cret',
        'https://checkin.example/?orgId=7&key=s3cret',
        'https://checkin.example/staff?orgId=7&key=',
      ]) {
        const storage = href.includes('/staff?orgId=7&key=s3cret') ? null : new Map<string, string>();
        const { window, replaceState } = windowAt(href, storage);
        moveStaffKeyOutOfAddress(window);
        expect(replaceState).not.toHaveBeenCalled();
        expect(storage?.size ?? 0).toBe(0);
      }
    });
  });
});
