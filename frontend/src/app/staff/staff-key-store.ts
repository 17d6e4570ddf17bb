import { Injectable } from '@angular/core';
import { STAFF_KEY_STORAGE_ITEM } from '@checkin/contract';

const STORAGE_KEY = STAFF_KEY_STORAGE_ITEM;

/**
 * Where the staff page keeps the staff key (docs/decisions.md, "Staff page"): session storage, so it lasts for this
 * browser tab and never lands in the address bar, history or bookmarks. When the browser refuses
 * storage, the key lives in memory for as long as the page does.
 */
@Injectable({ providedIn: 'root' })
export class StaffKeyStore {
  private inMemory: string | null = null;

  read(): string | null {
    try {
      return sessionStorage.getItem(STORAGE_KEY) ?? this.inMemory;
    } catch {
      return this.inMemory;
    }
  }

  save(key: string): void {
    this.inMemory = key;
    try {
      sessionStorage.setItem(STORAGE_KEY, key);
    } catch {
      // Storage disabled: the in-memory copy serves this page.
    }
  }

  forget(): void {
    this.inMemory = null;
    try {
      sessionStorage.removeItem(STORAGE_KEY);
    } catch {
      // Nothing was stored.
    }
  }
}
