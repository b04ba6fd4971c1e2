// Checksums and rules that turn pattern matches into findings, keeping false positives down.

/** Luhn (mod 10) check of a payment card number, digits only. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** A card number: 13 to 19 digits, a known issuer prefix, Luhn-valid, not one repeated digit. */
export function isCardNumber(candidate: string): boolean {
  const digits = candidate.replace(/[ -]/g, '');
  if (!/^\d{13,19}$/.test(digits) || /^(\d)\1+$/.test(digits)) return false;
  // Visa 4, Mastercard 51-55/22-27, Amex 34/37, Discover 6, Diners 30/36/38, JCB 35, UnionPay 62.
  if (!/^(?:4|5[1-5]|2[2-7]|3[0478]|35|6)/.test(digits)) return false;
  return luhnValid(digits);
}

/** IBAN: ISO 13616 mod-97 check (the rearranged number mod 97 is 1). */
export function isIban(candidate: string): boolean {
  const iban = candidate.replace(/ /g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

/** Numbers the SSA never issues, and the famous ones printed in advertising. */
const NEVER_ISSUED_SSNS = new Set(['078-05-1120', '219-09-9999', '123-45-6789']);

/** US SSN AAA-GG-SSSS: area not 000, 666 or 900-999; group not 00; serial not 0000. */
export function isSsn(candidate: string): boolean {
  const match = /^(\d{3})[- ](\d{2})[- ](\d{4})$/.exec(candidate);
  if (!match) return false;
  const [, area, group, serial] = match as unknown as [string, string, string, string];
  if (area === '000' || area === '666' || area >= '900') return false;
  if (group === '00' || serial === '0000') return false;
  return !NEVER_ISSUED_SSNS.has(`${area}-${group}-${serial}`);
}

/** Phone numbers have 10 to 15 digits (E.164 allows 15); fewer is a date or an id. */
export function isPhoneNumber(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  return digits.length >= 10 && digits.length <= 15;
}

/** A JWT's header is base64url JSON naming its algorithm. */
export function isJwt(candidate: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(candidate.split('.')[0]!, 'base64url').toString('utf8')) as { alg?: unknown };
    return typeof header.alg === 'string';
  } catch {
    return false;
  }
}
