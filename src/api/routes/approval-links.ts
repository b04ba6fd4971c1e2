// The signed approval links sent to a run's channels (src/approvals/links.ts): public (the link is
// the credential), mounted before the body parsers so a browser form's POST decides. GET shows the
// confirmation page and never decides; POST decides once.
import { Router, type Request } from 'express';
import { confirmationPage, decidedPage, decideByLink, openLink, type LinkParams } from '../../approvals/links.js';
import type { AppDeps } from '../../runtime-deps.js';

const LINK_PATH = '/v1/approval-links/:id/:decision';

function paramsOf(req: Request): LinkParams {
  return { id: String(req.params.id), decision: String(req.params.decision), expires: req.query.expires, channel: req.query.channel, sig: req.query.sig };
}

function pageHeaders(res: import('express').Response): void {
  // The page carries the link's own URL: never cached, never sent on as a referrer, no scripts.
  res.set({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'content-security-policy': "default-src 'none'; form-action 'self'", 'x-frame-options': 'DENY' });
}

export function approvalLinkRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get(LINK_PATH, async (req, res) => {
    const { approval, decision } = await openLink(deps, paramsOf(req));
    pageHeaders(res);
    res.type('html').send(confirmationPage(approval, decision));
  });
  router.post(LINK_PATH, async (req, res) => {
    const decided = await decideByLink(deps, paramsOf(req));
    pageHeaders(res);
    // A browser (Accept: text/html) gets a page; any other client the decided request.
    if (req.accepts(['json', 'html']) === 'html') res.type('html').send(decidedPage(decided.status));
    else res.json(decided);
  });
  return router;
}
