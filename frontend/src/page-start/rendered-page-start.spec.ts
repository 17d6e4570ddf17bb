import { LATER_CODE_ELEMENT_ID } from '@checkin/contract';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepsEnterInField } from '../app/form/enter-in-field';
import { OWNER_ACTIONS, ownerActedBefore, type RenderedPageStart, renderedPageStart } from './page-start';

const SOURCE = readFileSync(join(__dirname, 'rendered-page-start.js'), 'utf8');

/** The page's inline start, run against a fresh page in jsdom with the window's own frame timing. */
function runInlineStart(
  body: string,
  {
    readyState = 'loading',
    paintTiming = false,
  }: { readyState?: DocumentReadyState; paintTiming?: boolean } = {},
) {
  document.head.innerHTML = `<title>t</title><template id="${LATER_CODE_ELEMENT_ID}"><link rel="modulepreload" href="/chunk-A.js"></template>`;
  document.body.innerHTML = body;
  const frames: FrameRequestCallback[] = [];
  const timers: (() => void)[] = [];
  const loadListeners: (() => void)[] = [];
  /** The paint observers made, each with the callback that hands it entries. */
  const paintObservers: { types: string[]; notify: (names: string[]) => void; disconnected: boolean }[] = [];
  class StandInObserver {
    static supportedEntryTypes = ['paint', 'resource'];
    private readonly record: (typeof paintObservers)[number];
    constructor(callback: (list: { getEntriesByName(name: string): unknown[] }) => void) {
      this.record = {
        types: [],
        disconnected: false,
        notify: (names) => {
          if (!this.record.disconnected)
            callback({ getEntriesByName: (name) => names.filter((entry) => entry === name) });
        },
      };
      paintObservers.push(this.record);
    }
    observe({ type }: { type: string }): void {
      this.record.types.push(type);
    }
    disconnect(): void {
      this.record.disconnected = true;
    }
  }
  const stand = {
    ...(paintTiming ? { PerformanceObserver: StandInObserver } : {}),
    requestAnimationFrame: (callback: FrameRequestCallback) => frames.push(callback),
    setTimeout: (callback: () => void) => timers.push(callback),
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'load') loadListeners.push(listener);
    },
  } as unknown as Window & { __checkinPageStart?: RenderedPageStart };
  const doc = new Proxy(document, {
    get: (target, key) => {
      if (key === 'readyState') return readyState;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  new Function('window', 'document', 'HTMLInputElement', 'HTMLSelectElement', 'HTMLTemplateElement', SOURCE)(
    stand,
    doc,
    HTMLInputElement,
    HTMLSelectElement,
    HTMLTemplateElement,
  );
  const preloaded = (): string[] =>
    [...document.head.querySelectorAll('link[rel="modulepreload"]')].map(
      (link) => link.getAttribute('href') ?? '',
    );
  return { stand, frames, timers, loadListeners, paintObservers, preloaded };
}

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe("a rendered owner page's inline start (rendered-page-start.js)", () => {
  it('names the template, the owner actions and Enter in a field as the app does', () => {
    expect(SOURCE).toContain(`var LATER_CODE_ELEMENT_ID = '${LATER_CODE_ELEMENT_ID}';`);
    const listed = /var OWNER_ACTIONS = '([a-z ]*)'\.split\(' '\);/.exec(SOURCE)?.[1] ?? '';
    expect(listed.split(' ')).toEqual([...OWNER_ACTIONS]);
    const { stand } = runInlineStart(
      '<form><input id="text"><input id="file" type="file"><select id="choice"></select><textarea id="notes"></textarea><button id="send">Send</button></form>',
    );
    for (const id of ['text', 'file', 'choice', 'notes', 'send']) {
      const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
      document.getElementById(id)!.dispatchEvent(enter);
      expect(enter.defaultPrevented).toBe(keepsEnterInField(document.getElementById(id)));
    }
    stand.__checkinPageStart?.releaseSubmit();
  });

  it("holds the form's native submission and Enter in a field until the app releases them", () => {
    const { stand } = runInlineStart('<form><input id="text"><textarea id="notes"></textarea></form>');
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    document.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    const enterIn = (id: string): boolean => {
      const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
      document.getElementById(id)!.dispatchEvent(enter);
      return enter.defaultPrevented;
    };
    expect(enterIn('text')).toBe(true);
    expect(enterIn('notes')).toBe(false);
    renderedPageStart(stand)!.releaseSubmit();
    const later = new Event('submit', { bubbles: true, cancelable: true });
    document.querySelector('form')!.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    expect(enterIn('text')).toBe(false);
  });

  it('asks for the code once the page has loaded and its first contentful paint is shown, once', () => {
    const { stand, loadListeners, paintObservers, frames, preloaded } = runInlineStart(
      '<main><h1>Co-op</h1></main>',
      {
        paintTiming: true,
      },
    );
    expect(paintObservers).toHaveLength(0);
    loadListeners[0]!();
    expect(paintObservers.map((observer) => observer.types)).toEqual([['paint']]);
    paintObservers[0]!.notify(['first-paint']);
    expect(preloaded()).toEqual([]);
    paintObservers[0]!.notify(['first-contentful-paint']);
    expect(preloaded()).toEqual(['/chunk-A.js']);
    expect(paintObservers[0]!.disconnected).toBe(true);
    expect(frames).toHaveLength(0);
    renderedPageStart(stand)!.releaseSubmit();
  });

  it('without paint timing, asks for the code after the page has loaded and the next frame is drawn, once', () => {
    const { stand, frames, timers, loadListeners, preloaded } = runInlineStart('<main><h1>Co-op</h1></main>');
    expect(preloaded()).toEqual([]);
    expect(loadListeners).toHaveLength(1);
    loadListeners[0]!();
    expect(preloaded()).toEqual([]);
    frames[0]!(0);
    expect(preloaded()).toEqual([]);
    timers[0]!();
    expect(preloaded()).toEqual(['/chunk-A.js']);
    expect(document.getElementById(LATER_CODE_ELEMENT_ID)).toBeNull();
    // The owner's later actions neither fetch again nor count as having started the app.
    document.querySelector('h1')!.dispatchEvent(new Event('click', { bubbles: true }));
    expect(preloaded()).toEqual(['/chunk-A.js']);
    expect(renderedPageStart(stand)?.ownerActed).toBe(false);
    renderedPageStart(stand)!.releaseSubmit();
  });

  it('waits for the next frame at once on a page already loaded', () => {
    const { frames, loadListeners, stand } = runInlineStart('<main></main>', { readyState: 'complete' });
    expect(loadListeners).toHaveLength(0);
    expect(frames).toHaveLength(1);
    renderedPageStart(stand)!.releaseSubmit();
  });

  it.each(OWNER_ACTIONS)('asks for the code at the owner’s first %s, before the page has loaded', (type) => {
    const { stand, preloaded } = runInlineStart('<main><input id="field"></main>');
    document.getElementById('field')!.dispatchEvent(new Event(type, { bubbles: true }));
    expect(preloaded()).toEqual(['/chunk-A.js']);
    expect(renderedPageStart(stand)?.ownerActed).toBe(true);
    // main.ts, run next, starts the app at once.
    expect(ownerActedBefore(Object.assign(stand, { document }))).toBe(true);
    renderedPageStart(stand)!.releaseSubmit();
  });
});
