// Cookie and origin settings of browser sessions, derived once from the config.
import type { Config } from '../config.js';

export const SESSION_COOKIE = 'svc_session';
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionSettings {
  cookieDomain: string | undefined;
  secure: boolean;
  allowedOrigins: ReadonlySet<string>;
  signInRedirectUrl: string;
}

const LOCAL_HTTP = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/;

export function sessionSettings(config: Config): SessionSettings {
  const publicOrigin = new URL(config.publicBaseUrl).origin;
  const isLocalDev = LOCAL_HTTP.test(config.publicBaseUrl);
  const origins = config.SESSION_ALLOWED_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean) ?? [publicOrigin];
  return {
    cookieDomain: config.SESSION_COOKIE_DOMAIN,
    // Secure may be turned off only for plain-http local development.
    secure: isLocalDev ? (config.SESSION_COOKIE_SECURE ?? false) : true,
    allowedOrigins: new Set(origins.map((o) => new URL(o).origin)),
    signInRedirectUrl: config.SIGN_IN_REDIRECT_URL ?? `${publicOrigin}/`,
  };
}
