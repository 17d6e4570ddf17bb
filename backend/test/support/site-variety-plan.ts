import { ACTIVITY_CUSTOM_GROUP, CONTACT_CUSTOM_GROUP } from '../../src/app/crm/crm-names';

/**
 * The plan of a site shape (docs/emulator.md, "Site variety"): what the generator builds, decided
 * by a seed alone, so a failing shape is planned again from the seed the suite prints
 * (site-variety.ts builds it on a CRM).
 */

/** mulberry32: small, fast and the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The seed of this run: VARIETY_SEED when set (to build a failing shape again), else a new one. */
export function varietySeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env['VARIETY_SEED']);
  return Number.isSafeInteger(given) && given > 0 ? given : 1 + Math.floor(Math.random() * 2_000_000_000);
}

/** One custom field kind: a data_type / html_type pair CiviCRM's field editor offers. */
export interface FieldKind {
  key: string;
  dataType: string;
  htmlType: string;
  serialize?: boolean;
  options?: boolean;
  /** Date fields: CiviCRM's time_format (0 none, 1 12-hour, 2 24-hour). */
  timeFormat?: number;
}

export const FIELD_KINDS: readonly FieldKind[] = [
  { key: 'text', dataType: 'String', htmlType: 'Text' },
  { key: 'select', dataType: 'String', htmlType: 'Select', options: true },
  { key: 'checkbox', dataType: 'String', htmlType: 'CheckBox', options: true, serialize: true },
  { key: 'int', dataType: 'Int', htmlType: 'Text' },
  { key: 'float', dataType: 'Float', htmlType: 'Text' },
  { key: 'money', dataType: 'Money', htmlType: 'Text' },
  { key: 'memo', dataType: 'Memo', htmlType: 'TextArea' },
  { key: 'rich', dataType: 'Memo', htmlType: 'RichTextEditor' },
  { key: 'date', dataType: 'Date', htmlType: 'Select Date', timeFormat: 0 },
  { key: 'datetime', dataType: 'Date', htmlType: 'Select Date', timeFormat: 2 },
  { key: 'boolean', dataType: 'Boolean', htmlType: 'Radio' },
  { key: 'link', dataType: 'Link', htmlType: 'Link' },
  { key: 'file', dataType: 'File', htmlType: 'File' },
  { key: 'contactref', dataType: 'ContactReference', htmlType: 'Autocomplete-Select' },
];

/** Writing that merely contains `<`, `&` and `>` (docs/decisions.md, "Owner text is inert"). */
export const ORDINARY_WRITING: readonly string[] = [
  'Bread&Ltd.',
  'Q&A after the meeting; AT&T donated phones',
  '5 < 6 and 7 > 6; we <3 our members',
  'We wrote "&lt;" in the minutes',
  'https://example.org/search?q=co-op&ltd=3&page=2',
  'Coopérative Forêt, São Paulo, Zürich — 合作社 🍞🥖🎉',
  `${'Members met monthly; Q&A followed. '.repeat(30)}`.trim(),
];

/** Decorations for names and labels: accents, emoji, and text that looks like markup. */
const DECORATIONS: readonly string[] = [
  'Coopérative « Forêt »',
  'Épicerie 🍞 & Co',
  'Zürich Ünïon 🥕',
  'Bread&Ltd. <3',
  'São João <co-op>',
  'Œuvre "Q&A" 5 < 6',
];

export interface ExtraField {
  kind: FieldKind;
  /** 'activity' or 'contact': the product's group it was added to. */
  group: 'activity' | 'contact';
  name: string;
  label: string;
  /** The API key under the documented group name: `<Group>.<name>`. */
  apiKey: string;
  id?: number;
  optionGroupId?: number;
  /** Option values and labels, for select and checkbox kinds. */
  options: Array<{ value: string; label: string }>;
}

/** A configured field the shape changes in CiviCRM, put back by cleanup. */
export interface ChangedField {
  apiKey: string;
  change: 'disabled' | 'relabelled';
  newLabel?: string;
  id?: number;
  before?: { label: unknown; is_active: unknown };
}

export interface VarietyPlan {
  seed: number;
  /** In every name the shape writes, so two runs on one site never meet. */
  tag: string;
  extraFields: ExtraField[];
  changedFields: ChangedField[];
  /** Check-ins of the long-history co-op. */
  longHistory: number;
  /** How many of its oldest check-ins hold the file answers. */
  filesInOldest: number;
  decorate(base: string): string;
}

/** The markup the suite looks for, raw, in rendered pages: never there unescaped. */
export function markupMark(tag: string): string {
  return `<b data-variety="${tag}">`;
}

export function planSite(seed: number, options: { longHistory: number }): VarietyPlan {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const tag = `v${seed.toString(36)}`;
  const decorate = (base: string) => `${base} ${pick(DECORATIONS)} ${tag}`;
  const extraFields: ExtraField[] = [];
  for (const group of ['activity', 'contact'] as const) {
    const groupName = group === 'activity' ? ACTIVITY_CUSTOM_GROUP : CONTACT_CUSTOM_GROUP;
    for (const kind of FIELD_KINDS) {
      const name = `Variety_${kind.key}_${tag}`;
      extraFields.push({
        kind,
        group,
        name,
        label: decorate(`Extra ${kind.key}`) + (random() < 0.5 ? ` ${markupMark(tag)}x</b>` : ''),
        apiKey: `${groupName}.${name}`,
        options: kind.options
          ? [
              { value: `a_${tag}`, label: `Less <than> & more ${tag}` },
              // As CiviCRM's own option screen stores a label typed "Fish <&> Chips": HTML-encoded.
              { value: `b_${tag}`, label: `Fish &lt;&amp;&gt; Chips ${tag}` },
              { value: `c_${tag}`, label: `Ça & Là 🍞 ${tag}` },
            ]
          : [],
      });
    }
  }
  // Which configured fields an administrator touched: one disabled and one relabelled per group.
  const disabled = pick(['Interest_list_size', 'Store_size_sqft', 'Member_owner_count']);
  const relabelled = pick(['Organizing_notes', 'Market_study_status', 'Projected_annual_sales']);
  const changedFields: ChangedField[] = [
    { apiKey: `${ACTIVITY_CUSTOM_GROUP}.${disabled}`, change: 'disabled' },
    {
      apiKey: `${ACTIVITY_CUSTOM_GROUP}.${relabelled}`,
      change: 'relabelled',
      newLabel: decorate('Relabelled') + ` ${markupMark(tag)}r</b>`,
    },
    {
      apiKey: `${CONTACT_CUSTOM_GROUP}.${pick(['Equity_share', 'Date_Incorporated'])}`,
      change: 'relabelled',
      newLabel: decorate('Relabelled contact field'),
    },
  ];
  return {
    seed,
    tag,
    extraFields,
    changedFields,
    longHistory: options.longHistory,
    filesInOldest: 2 + Math.floor(random() * 3),
    decorate,
  };
}
