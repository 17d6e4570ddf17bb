import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { verifyingKeys } from '../config/key-rotation';

/** What a receipt vouches for: this person uploaded this file for this field of this organization. */
export interface ReceiptSubject {
  contactId: number;
  orgId: number;
  /** Form-side field name (the upload's fieldRef). */
  field: string;
  fileId: number;
}

/** Versioned, so the message can change without an old receipt ever matching a new meaning. */
const RECEIPT_VERSION = 'file-receipt-v2';

/**
 * How long a receipt vouches for its upload: the extension's cleanup job removes uploads still
 * attached to nothing after two days by default, so an older receipt may name a file that is gone
 * (docs/decisions.md, "Upload receipts expire").
 */
export const RECEIPT_TTL_SECONDS = 48 * 3600;

const RECEIPT_FORMAT = /^([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * docs/decisions.md, "Organization access" for files: /api/upload answers each stored file with a receipt, an HMAC-SHA-256
 * (UPLOAD_RECEIPT_KEY) over contact, organization, field, file id and expiry, and submit accepts a new
 * file value only with its receipt. File ids are sequential: without this, an owner could
 * attach any other organization's file to their own. The service keeps no record of uploads;
 * the receipt travels with the form value in the browser instead.
 */
@Injectable()
export class FileReceipts {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** `<expires>.<mac>`: the expiry (Unix seconds) travels in the clear and is part of the MAC. */
  issue(subject: ReceiptSubject, nowSeconds = Math.floor(Date.now() / 1000)): string {
    const expires = nowSeconds + RECEIPT_TTL_SECONDS;
    return `${expires}.${this.mac(subject, expires).toString('base64url')}`;
  }

  /** Constant time; anything but an unexpired, well-formed receipt for exactly this subject is false. */
  verify(subject: ReceiptSubject, receipt: unknown, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
    const match = typeof receipt === 'string' ? RECEIPT_FORMAT.exec(receipt) : null;
    if (!match) return false;
    const expires = Number(match[1]);
    // The text is compared, not its decoding: base64url decoding ignores a last character's
    // spare bits, so several spellings decode to the same MAC, and only the issued one is valid.
    const presented = Buffer.from(match[2] ?? '');
    // While UPLOAD_RECEIPT_KEY is rotated, receipts of the previous key count until its instant.
    const { receiptKey, receiptPreviousKey } = this.config.uploads;
    const authentic = verifyingKeys(receiptKey, receiptPreviousKey, new Date(nowSeconds * 1000)).some(
      (key) => {
        const expected = Buffer.from(this.mac(subject, expires, key).toString('base64url'));
        return presented.byteLength === expected.byteLength && timingSafeEqual(presented, expected);
      },
    );
    return authentic && expires >= nowSeconds;
  }

  private mac(
    { contactId, orgId, field, fileId }: ReceiptSubject,
    expires: number,
    key = this.config.uploads.receiptKey,
  ): Buffer {
    return createHmac('sha256', key)
      .update([RECEIPT_VERSION, contactId, orgId, field, fileId, expires].join('\u0000'))
      .digest();
  }
}
