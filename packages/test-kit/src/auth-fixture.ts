import { authInternalRoutes } from '@productgen/contracts';
import { AppError, serveRoute } from '@productgen/service-kit';
import { startFixture, type FixtureService } from './fixture-service';

/** Session keys the auth stand-in knows, and the user each belongs to. */
export const KNOWN_SESSIONS: Readonly<Record<string, string>> = {
  'key-alice': 'user-alice',
  'key-bob': 'user-bob',
  'key-carol': 'user-carol',
};

export interface AuthFixture extends FixtureService {
  /**
   * The users the internal user route knows, with their brand colours (an empty list for none); any other id is a
   * 404, which the renderer takes as "no brand colours".
   */
  readonly brandColors: Map<string, string[]>;
  /** Calls of GET /internal/sessions/verify so far. */
  verifyCalls(): number;
}

/**
 * Auth's stand-in for the other services' tests, its internal routes served from the contracts' declarations (the
 * auth contract suite checks it answers as the real auth does): the session check (KNOWN_SESSIONS, a key revoked by
 * POST /auth/logout) and the internal user (`brandColors`). Sign-in (POST /auth/google) starts a session of alice's
 * unless the credential is `bad`. It records every request, and echoes any other route (test-kit's startFixture).
 */
export async function startAuthFixture(): Promise<AuthFixture> {
  const sessions = new Map(Object.entries(KNOWN_SESSIONS));
  const brandColors = new Map<string, string[]>();
  let verifyCalls = 0;
  const fixture = await startFixture('auth', (app) => {
    serveRoute(app, authInternalRoutes.verifySession, ({ headers }) => {
      verifyCalls += 1;
      const userId = sessions.get(headers['x-session-key'] ?? '');
      if (!userId) throw AppError.unauthorized();
      return { userId };
    });
    serveRoute(app, authInternalRoutes.getUser, ({ params }) => {
      const colors = brandColors.get(params.id);
      if (!colors) throw AppError.notFound('User not found');
      return {
        id: params.id,
        name: 'Test Seller',
        email: `${params.id}@example.com`,
        picture: '',
        credits: 0,
        site_url: '',
        shop_context: [],
        flags: { is_first_generation: false, showSiteUrlTooltip: false },
        brand_colors: colors,
      };
    });
    app.post('/auth/google', (req, res) => {
      const { credential } = JSON.parse(String(req.body)) as { credential?: string };
      if (credential === 'bad') return void res.status(401).json({ code: 401, error: 'Failed to verify Google token' });
      res.json({ session_key: 'key-alice', user: { id: 'user-alice' } });
    });
    app.post('/auth/logout', (req, res) => {
      sessions.delete(String(req.headers['x-session-key'] ?? ''));
      res.json({ success: true });
    });
  });
  return Object.assign(fixture, { brandColors, verifyCalls: () => verifyCalls });
}
