import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** What a receipt vouches for: this person uploaded this file for this field of this organization. */
export interface ReceiptSubject {
  contactId: number;
  orgId: number;
  /** Form-side field name (the upload's fieldRef). */
  field: string;
  fileId: number;
}

/** Versioned, so the message can change without an old receipt ever matching a new meaning. */
const RECEIPT_VERSION = 'file-receipt-v1';

/**
 * docs/decisions.md, "Organization access" for files: /api/upload answers each stored file with a receipt, an HMAC-SHA-256
 * (UPLOAD_RECEIPT_KEY) over contact, organization, field and file id, and submit accepts a new
 * file value only with its receipt. File ids are sequential: without this, an owner could
 * attach any other organization's file to their own. The service keeps no record of uploads;
 * the receipt travels with the form value in the browser instead.
 */
@Injectable()
export class FileReceipts {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  issue(subject: ReceiptSubject): string {
    return this.mac(subject).toString('base64url');
  }

  /** Constant time; anything but a well-formed receipt for exactly this subject is false. */
  verify(subject: ReceiptSubject, receipt: unknown): boolean {
    if (typeof receipt !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(receipt)) return false;
    const presented = Buffer.from(receipt, 'base64url');
    const expected = this.mac(subject);
    return presented.byteLength === expected.byteLength && timingSafeEqual(presented, expected);
  }

  private mac({ contactId, orgId, field, fileId }: ReceiptSubject): Buffer {
    return createHmac('sha256', this.config.uploads.receiptKey)
      .update([RECEIPT_VERSION, contactId, orgId, field, fileId].join('\u0000'))
      .digest();
  }
}
