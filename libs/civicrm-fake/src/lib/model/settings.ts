import type { ModelStore } from './store';
import { type Params, fail } from './values';
import type { CrmRow } from './types';

/**
 * The domain settings the model knows, with CiviCRM's defaults (core/settings/Localization.setting.php):
 * the site's currency and language, and the separators CiviCRM itself formats money with.
 */
export const SETTING_DEFAULTS: Readonly<Record<string, string>> = {
  defaultCurrency: 'USD',
  lcMessages: 'en_US',
  monetaryThousandSeparator: ',',
  monetaryDecimalPoint: '.',
};

/**
 * APIv4 `Setting.get` / `Setting.set` for domain 1. `get` answers one row per selected name
 * (`{name, value, domain_id}`), every known setting without `select`; an unknown name is refused
 * as a whole ("Unknown settings for domain 1: x"). Both need _administer CiviCRM_ (CiviCRM's
 * default entity permission; the facade checks it).
 */
export class SiteSettings {
  constructor(private readonly store: ModelStore) {}

  value(name: string): string {
    this.known([name]);
    return this.store.state.settings.get(name) ?? SETTING_DEFAULTS[name];
  }

  set(name: string, value: string): void {
    this.known([name]);
    this.store.state.settings.set(name, value);
  }

  api4(action: string, params: Params): CrmRow[] {
    if (action === 'get') {
      const select = Array.isArray(params['select'])
        ? params['select'].map(String)
        : Object.keys(SETTING_DEFAULTS);
      this.known(select);
      return select.map((name) => ({ name, value: this.value(name), domain_id: 1 }));
    }
    if (action === 'set') {
      const values = params['values'];
      if (!values || typeof values !== 'object' || Array.isArray(values))
        return fail('Mandatory values missing from Api4 Setting::set: values');
      const entries = Object.entries(values as Record<string, unknown>);
      this.known(entries.map(([name]) => name));
      return entries.map(([name, value]) => {
        this.set(name, String(value));
        return { name, value: String(value), domain_id: 1 };
      });
    }
    return fail(`Api Setting ${action} version 4 does not exist.`);
  }

  private known(names: readonly string[]): void {
    const unknown = names.filter((name) => !(name in SETTING_DEFAULTS));
    if (unknown.length > 0) fail(`Unknown settings for domain 1: ${unknown.join(', ')}`);
  }
}
