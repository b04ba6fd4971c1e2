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
  // One pass without allocations: adversarial input makes this run for every 37 characters.
  let digits = 0;
  let first = -1;
  let second = -1;
  let repeated = true;
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate.charCodeAt(i);
    if (c === 32 || c === 45) continue;
    if (c < 48 || c > 57) return false;
    const digit = c - 48;
    if (digits === 0) first = digit;
    else if (digits === 1) second = digit;
    if (digit !== first) repeated = false;
    digits++;
  }
  if (digits < 13 || digits > 19 || repeated) return false;
  // Visa 4, Mastercard 51-55/22-27, Amex 34/37, Discover 6, Diners 30/38, JCB 35, UnionPay 62.
  const prefix = first * 10 + second;
  const issuer = first === 4 || first === 6 || (prefix >= 51 && prefix <= 55) || (prefix >= 22 && prefix <= 27) || prefix === 30 || prefix === 34 || prefix === 35 || prefix === 37 || prefix === 38;
  return issuer && luhnValid(candidate.replace(/[ -]/g, ''));
}

/** IBAN: ISO 13616 mod-97 check (the rearranged number mod 97 is 1). */
export function isIban(candidate: string): boolean {
  // Without allocations: adversarial input makes this run for every match-sized piece of it.
  const chars: number[] = [];
  for (let i = 0; i < candidate.length; i++) {
    let c = candidate.charCodeAt(i);
    if (c === 32) continue;
    if (c >= 97 && c <= 122) c -= 32;
    const digit = c >= 48 && c <= 57;
    if (!digit && !(c >= 65 && c <= 90)) return false;
    // Two letters (country), two digits (check), then 11 to 30 letters or digits.
    if (chars.length < 2 ? digit : chars.length < 4 && !digit) return false;
    chars.push(c);
  }
  if (chars.length < 15 || chars.length > 34) return false;
  let remainder = 0;
  // The first four characters move to the end; letters count as two digits (A = 10).
  for (let k = 0; k < chars.length; k++) {
    const c = chars[(k + 4) % chars.length]!;
    remainder = c >= 65 ? (remainder * 100 + (c - 55)) % 97 : (remainder * 10 + (c - 48)) % 97;
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
