/** The links page's theme: the template chosen and an accent readable at 4.5:1. */

import { str } from './dom.js';

const TEMPLATES = ['editorial', 'swiss', 'cosmos'];
const DEFAULT_TEMPLATE = 'editorial';
const MIN_TEXT_CONTRAST = 4.5;

/* ---------- Theme: template choice and a readable accent ---------- */

export function chooseTemplate(theme) {
  const requested = new URLSearchParams(window.location.search).get('template');
  if (TEMPLATES.includes(requested)) return requested;
  return TEMPLATES.includes(theme?.template) ? theme.template : DEFAULT_TEMPLATE;
}

/** Any opaque CSS color as [r, g, b]; the canvas does the parsing so every CSS syntax works. */
export function parseColor(value) {
  if (!str(value) || !CSS.supports('color', value)) return null;
  const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  context.fillStyle = value;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b, alpha] = context.getImageData(0, 0, 1, 1).data;
  return alpha === 255 ? [r, g, b] : null;
}

export function luminance([r, g, b]) {
  const linear = (channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

export function mix(from, to, amount) {
  return from.map((channel, i) => Math.round(channel + (to[i] - channel) * amount));
}

export const toCss = ([r, g, b]) => `rgb(${r} ${g} ${b})`;

/** `color` moved toward `ink` in 5% steps, just far enough to read at 4.5:1 on every background. */
export function readableAccent(color, ink, backgrounds) {
  for (let step = 0; step <= 20; step += 1) {
    const candidate = mix(color, ink, step / 20);
    if (backgrounds.every((background) => contrast(candidate, background) >= MIN_TEXT_CONTRAST))
      return candidate;
  }
  return ink;
}

/**
 * Sets the accent custom properties for the current template and color scheme:
 * --accent fills surfaces, --on-accent is the text on that fill (black or white, whichever reads
 * better), and --accent-text is the accent moved toward the text color just enough to keep 4.5:1
 * on every background of the template.
 */
export function applyAccent(accent) {
  const root = document.documentElement;
  const tokens = getComputedStyle(root);
  const token = (name) => parseColor(tokens.getPropertyValue(name).trim());
  const base = parseColor(accent) ?? token('--accent-default');
  const ink = token('--ink');
  const backgrounds = ['--bg', '--surface', '--surface-2'].map(token).filter(Boolean);
  if (!base || !ink) return;

  const text = readableAccent(base, ink, backgrounds);
  const onAccent = contrast(base, [255, 255, 255]) >= contrast(base, [0, 0, 0]) ? [255, 255, 255] : [0, 0, 0];

  root.style.setProperty('--accent', toCss(base));
  root.style.setProperty('--on-accent', toCss(onAccent));
  root.style.setProperty('--accent-text', toCss(text));
}

export function applyTheme(theme) {
  document.documentElement.dataset.template = chooseTemplate(theme);
  const accent = str(theme?.accent);
  applyAccent(accent);
  // The backgrounds differ between light and dark, so the readable accent is worked out again.
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyAccent(accent));
}
