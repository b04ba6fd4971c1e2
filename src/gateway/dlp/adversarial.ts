// Known-bad input shapes per detector: text that makes a backtracking scanner retry a long match
// from many start positions (prefix repeated, runs that almost match, separators that almost
// close). Shared by the adversarial test and bench/dlp; each generator fills `size` characters.
import type { DetectorType } from './detectors.js';

export type Generator = (size: number) => string;

const fill = (unit: string, tail = ''): Generator => (size) => unit.repeat(Math.max(1, Math.floor((size - tail.length) / unit.length))) + tail;

/** Shapes that stress every detector (long runs of the characters most patterns are made of). */
export const COMMON_SHAPES: Record<string, Generator> = {
  'a.a.': fill('a.'),
  letters: fill('a'),
  digits: fill('1'),
  'digit groups': fill('1 '),
  'word-dash': fill('a-'),
};

export const ADVERSARIAL: Record<DetectorType, Record<string, Generator>> = {
  private_key: {
    'BEGIN headers without END': fill('-----BEGIN RSA PRIVATE KEY-----\n'),
    'BEGIN with endless words': (size) => `-----BEGIN ${fill('A ')(size - 11)}`,
    'dashes': fill('-'),
  },
  aws_access_key: { prefixes: fill('AKIA'), 'almost keys': fill(`AKIA${'A'.repeat(15)} `) },
  google_api_key: { prefixes: fill('AIza'), 'almost keys': fill(`AIza${'a'.repeat(34)} `) },
  github_token: { prefixes: fill('ghp_'), 'pat prefixes': fill('github_pat_'), 'long tails': fill(`ghp_${'a'.repeat(300)}_`) },
  slack_token: { prefixes: fill('xoxb-'), 'webhook prefixes': fill('https://hooks.slack.com/services/') },
  anthropic_api_key: { prefixes: fill('sk-ant-api03-'), 'almost keys': fill('sk-ant-api03-aaaaaaaaaaaaaaaaaaa ') },
  openai_api_key: { prefixes: fill('sk-'), 'project prefixes': fill('sk-proj-'), 'dash words': fill('-sk-a') },
  service_api_key: { prefixes: fill('svc_live_'), 'almost keys': fill(`svc_live_${'a'.repeat(31)}_`) },
  jwt: {
    'header runs without dots': fill('eyJ-'),
    'header and payload starts': fill('eyJhbGciOi.eyJ'),
    'checker attack': (size) => fill('eyJeJ--e0e-')(size - 1) + '\x00',
  },
  credit_card: { 'spaced digits': fill('4 '), 'dashed groups': fill('4111-'), digits: fill('4') },
  iban: { 'country and check': fill('DE89 '), 'spaced letters': (size) => `DE89${fill(' A')(size - 4)}_` },
  us_ssn: { 'area and group': fill('123-45-'), 'spaced': fill('123 ') },
  email: {
    'local parts': fill('a.'),
    'at signs': fill('a@'),
    'domain labels': fill('a@a.'),
    'checker attack': (size) => `0${fill('0-_')(size - 9)}_@_@-.AA`,
    'long domain': (size) => `a@${fill('a.')(size - 3)}1`,
  },
  phone: { 'country codes': fill('+1 '), 'area codes': fill('(415) '), 'dotted digits': fill('1.'), 'spaced digits': fill('12 ') },
};
