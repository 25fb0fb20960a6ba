import Logging
import PostgresNIO

/// The server's schema, built by numbered migrations; each runs once, in a transaction that
/// holds an advisory lock, so two servers starting at once migrate one after the other.
enum Schema {
  /// The advisory lock key of migrations (and nothing else).
  static let migrationLock: Int64 = 0x5359_4e43_5550_0001
  /// The advisory lock key that puts pushes in a row, so versions commit in their order and a
  /// pull's cursor never passes a version that is still being written.
  static let pushLock: Int64 = 0x5359_4e43_5550_0002
  /// The channel a push notifies when it commits.
  static let changesChannel = "syncups_changes"

  static let migrations: [String] = [
    // 1: everything of the first version.
    """
    CREATE TEXT SEARCH DICTIONARY syncups_stem (TEMPLATE = snowball, Language = english);
    CREATE TEXT SEARCH CONFIGURATION syncups (COPY = english);
    ALTER TEXT SEARCH CONFIGURATION syncups ALTER MAPPING REPLACE english_stem WITH syncups_stem;
    CREATE SEQUENCE change_version;
    CREATE TABLE person (
      id bigserial PRIMARY KEY,
      name text NOT NULL UNIQUE,
      role text NOT NULL CHECK (role IN ('reader', 'writer')),
      password_hash text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE token (
      id bigserial PRIMARY KEY,
      person_id bigint NOT NULL REFERENCES person ON DELETE CASCADE,
      hash bytea NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    );
    CREATE TABLE sync_up (
      id uuid PRIMARY KEY,
      title text NOT NULL,
      theme text NOT NULL,
      duration double precision NOT NULL,
      deleted boolean NOT NULL,
      document jsonb NOT NULL,
      version bigint NOT NULL
    );
    CREATE INDEX sync_up_version ON sync_up (version);
    CREATE TABLE attendee (
      sync_up_id uuid NOT NULL REFERENCES sync_up ON DELETE CASCADE,
      position integer NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      PRIMARY KEY (sync_up_id, position)
    );
    CREATE TABLE vocabulary_word (
      sync_up_id uuid NOT NULL REFERENCES sync_up ON DELETE CASCADE,
      position integer NOT NULL,
      word text NOT NULL,
      PRIMARY KEY (sync_up_id, position)
    );
    CREATE TABLE audio (
      sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      size bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE meeting (
      id uuid PRIMARY KEY,
      sync_up_id uuid NOT NULL REFERENCES sync_up ON DELETE CASCADE,
      date timestamptz NOT NULL,
      length double precision NOT NULL,
      audio_sha256 text REFERENCES audio,
      audio_type text,
      deleted boolean NOT NULL,
      clock text COLLATE "C" NOT NULL,
      version bigint NOT NULL
    );
    CREATE INDEX meeting_version ON meeting (version);
    CREATE INDEX meeting_sync_up_date ON meeting (sync_up_id, date DESC, id DESC);
    CREATE TABLE segment (
      meeting_id uuid NOT NULL REFERENCES meeting ON DELETE CASCADE,
      ordinal integer NOT NULL,
      speaker text NOT NULL,
      start_time double precision NOT NULL,
      end_time double precision NOT NULL,
      text text NOT NULL,
      words jsonb NOT NULL,
      search tsvector GENERATED ALWAYS AS (to_tsvector('syncups', text)) STORED,
      PRIMARY KEY (meeting_id, ordinal)
    );
    CREATE INDEX segment_search ON segment USING gin (search);
    CREATE TABLE push_receipt (
      device uuid NOT NULL,
      push_id uuid NOT NULL,
      person_id bigint REFERENCES person ON DELETE SET NULL,
      receipt text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (device, push_id)
    );
    """,
    // 2: the web pages' sessions, kept here so a restart keeps people signed in and
    // two servers share them; only the SHA-256 of a session's token is stored.
    """
    CREATE TABLE web_session (
      hash bytea PRIMARY KEY,
      person_id bigint NOT NULL REFERENCES person ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX web_session_expires ON web_session (expires_at);
    """,
    // 3: corrections: what the recogniser gave, beside a corrected segment whose
    // own columns (searched, shown) hold the correction; NULL when never corrected.
    """
    ALTER TABLE segment ADD COLUMN original jsonb;
    """,
    // 4: the newest meetings first, for search's window (`TeamStore.search`).
    """
    CREATE INDEX meeting_date ON meeting (date DESC, id DESC);
    """,
    // 5: a sync-up's meetings that are not deleted, newest first: its page of meetings and its
    // meeting count read only this index (the count scanned every meeting once per sync-up).
    """
    CREATE INDEX meeting_live ON meeting (sync_up_id, date DESC, id DESC) WHERE NOT deleted;
    """,
    // 6: what the lists show costs the same however long the history: a meeting's number of
    // segments and its first segment's text, written with its segments (`TeamStore.write`),
    // so a page of meetings reads the meeting rows alone; and each sync-up's number of live
    // meetings, kept by the database itself (a trigger on every write of a meeting), so the
    // list of sync-ups no longer counts every meeting.
    """
    ALTER TABLE meeting ADD COLUMN segment_count integer NOT NULL DEFAULT 0,
      ADD COLUMN first_text text NOT NULL DEFAULT '';
    UPDATE meeting m SET segment_count = s.count, first_text = s.first
    FROM (SELECT meeting_id, count(*) AS count, (array_agg(text ORDER BY ordinal))[1] AS first
      FROM segment GROUP BY meeting_id) s
    WHERE s.meeting_id = m.id;
    CREATE TABLE sync_up_meetings (
      sync_up_id uuid PRIMARY KEY,
      live integer NOT NULL
    );
    INSERT INTO sync_up_meetings (sync_up_id, live)
    SELECT sync_up_id, count(*) FILTER (WHERE NOT deleted) FROM meeting GROUP BY sync_up_id;
    CREATE FUNCTION count_live_meetings() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND NOT OLD.deleted THEN
        UPDATE sync_up_meetings SET live = live - 1 WHERE sync_up_id = OLD.sync_up_id;
      END IF;
      IF TG_OP <> 'DELETE' AND NOT NEW.deleted THEN
        INSERT INTO sync_up_meetings (sync_up_id, live) VALUES (NEW.sync_up_id, 1)
        ON CONFLICT (sync_up_id) DO UPDATE SET live = sync_up_meetings.live + 1;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER meeting_counted AFTER INSERT OR DELETE OR UPDATE OF sync_up_id, deleted
    ON meeting FOR EACH ROW EXECUTE FUNCTION count_live_meetings();
    """,
    // 7: people can be removed (`user remove`): the row stays, marked, so a push receipt still
    // names who pushed; a name is unique only among the people not removed (in any case, as
    // `user add` has always compared names), so it can be added again.
    """
    ALTER TABLE person ADD COLUMN removed_at timestamptz;
    ALTER TABLE person DROP CONSTRAINT person_name_key;
    CREATE UNIQUE INDEX person_live_name ON person (lower(name)) WHERE removed_at IS NULL;
    """,
    // 8: the audio's bytes in the database (`AudioStore`), so every server on it serves the
    // same: chunks numbered from 0, each `chunk_size` bytes but the last, written when the
    // upload's hash is checked. A row without `chunk_size` has its bytes on the disk of a server
    // from before, until `migrate --data` imports them. The chunks are kept out of line and
    // uncompressed (audio does not compress), so a range reads only the part it needs.
    """
    ALTER TABLE audio ADD COLUMN chunk_size integer CHECK (chunk_size > 0);
    CREATE TABLE audio_chunk (
      sha256 text NOT NULL REFERENCES audio ON DELETE CASCADE,
      number integer NOT NULL CHECK (number >= 0),
      bytes bytea NOT NULL,
      PRIMARY KEY (sha256, number)
    );
    ALTER TABLE audio_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL;
    """,
    // 9: many teams on one server. Every sync-up belongs to one team; a person belongs to
    // teams, with a role in each (`membership`; the role moves there from `person`). What was
    // here before, and everyone not removed with their role, goes into a first team, `team`.
    """
    CREATE TABLE team (
      id bigserial PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX team_name ON team (lower(name));
    INSERT INTO team (name) VALUES ('team');
    CREATE TABLE membership (
      person_id bigint NOT NULL REFERENCES person ON DELETE CASCADE,
      team_id bigint NOT NULL REFERENCES team ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('reader', 'writer')),
      PRIMARY KEY (person_id, team_id)
    );
    CREATE INDEX membership_team ON membership (team_id);
    INSERT INTO membership (person_id, team_id, role)
    SELECT id, (SELECT id FROM team), role FROM person WHERE removed_at IS NULL;
    ALTER TABLE person DROP COLUMN role;
    ALTER TABLE sync_up ADD COLUMN team_id bigint REFERENCES team;
    UPDATE sync_up SET team_id = (SELECT id FROM team);
    ALTER TABLE sync_up ALTER COLUMN team_id SET NOT NULL;
    CREATE INDEX sync_up_team ON sync_up (team_id);
    """,
    // 10: each meeting's JSON as the API gives it, written with its rows (`TeamStore.write`) and
    // served as it is (not compressed: compressing cost a push more than storing). A
    // segment's words are kept as `json` text, no longer parsed into `jsonb` (which took a
    // push as long as indexing the words for search); they are read when a meeting's page is
    // made. `TeamStore.migrate` fills the JSON for the meetings saved before. A meeting
    // rewritten without it (by a server of an earlier version, sharing the database) loses it,
    // so stale bytes are never served: the JSON is then made from the rows again.
    """
    ALTER TABLE meeting ADD COLUMN json bytea;
    ALTER TABLE meeting ALTER COLUMN json SET STORAGE EXTERNAL;
    ALTER TABLE segment ALTER COLUMN words TYPE json USING words::json;
    CREATE FUNCTION forget_meeting_json() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.json IS NOT DISTINCT FROM OLD.json THEN
        NEW.json := NULL;
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER meeting_json_kept BEFORE UPDATE OF clock ON meeting
    FOR EACH ROW EXECUTE FUNCTION forget_meeting_json();
    """,
    // 11: the device id of the changes the server makes itself (a correction on a meeting's
    // page): its clocks are ordered with the laptops', and never tie with one of them. A
    // meeting's segments carry their own clocks in its JSON, so corrections merge segment by
    // segment (`MeetingDocument.merged`).
    """
    CREATE TABLE server_device (id text NOT NULL);
    INSERT INTO server_device (id) VALUES (gen_random_uuid()::text);
    """,
    // 12: what laptops learned of each attendee (their voice, their acoustic adaptation) or
    // that it was forgotten: the pushed document whole (`PersonDocument`'s JSON, served as it
    // is), the later clock winning, gone with its sync-up.
    """
    CREATE TABLE learned_person (
      attendee_id uuid PRIMARY KEY,
      sync_up_id uuid NOT NULL REFERENCES sync_up ON DELETE CASCADE,
      clock text COLLATE "C" NOT NULL,
      document bytea NOT NULL,
      version bigint NOT NULL
    );
    CREATE INDEX learned_person_version ON learned_person (version);
    CREATE INDEX learned_person_sync_up ON learned_person (sync_up_id);
    ALTER TABLE learned_person ALTER COLUMN document SET STORAGE EXTERNAL;
    """,
    // 13: clocks are valid by construction (`HybridClock`); a sync-up brought back before
    // that could be stored with a counter past its four digits, which no read takes. Such a
    // counter carries into the milliseconds, as `HybridClock` now does, and the sync-up gets
    // a new version, so every laptop pulls it again.
    """
    CREATE FUNCTION syncups_repaired_clock(clock text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT CASE WHEN clock ~ '^[0-9]{16}-[0-9]{5,}-' THEN
        lpad(least(split_part(clock, '-', 1)::numeric
          + div(split_part(clock, '-', 2)::numeric, 10000), 9999999999999999)::text, 16, '0')
        || '-' || lpad(mod(split_part(clock, '-', 2)::numeric, 10000)::text, 4, '0')
        || '-' || substring(clock from '^[0-9]+-[0-9]+-(.*)$')
      ELSE clock END
    $$;
    UPDATE sync_up SET document = (
      SELECT jsonb_object_agg(field.key, CASE WHEN jsonb_typeof(field.value) = 'object'
        AND field.value ? 'clock' THEN jsonb_set(field.value, '{clock}',
          to_jsonb(syncups_repaired_clock(field.value->>'clock'))) ELSE field.value END)
      FROM jsonb_each(document) AS field), version = nextval('change_version')
    WHERE document::text ~ '"[0-9]{16}-[0-9]{5,}-';
    DROP FUNCTION syncups_repaired_clock(text);
    """,
    // 14: what is learned of an attendee is kept per sync-up: an id some other team's sync-up
    // took on (before `requireOwnAttendees`) never stands in the way of its own team's pushes.
    """
    ALTER TABLE learned_person DROP CONSTRAINT learned_person_pkey;
    ALTER TABLE learned_person ADD PRIMARY KEY (attendee_id, sync_up_id);
    """,
    // 15: the sign-in throttle's turns, shared by every server on this database
    // (`TeamStore.reserveSignInTurn`): per name and per address, the failures in a row and when
    // the next attempt may be checked.
    """
    CREATE TABLE sign_in_turn (
      key text PRIMARY KEY,
      failures integer NOT NULL,
      next_turn timestamptz NOT NULL,
      last timestamptz NOT NULL
    );
    CREATE INDEX sign_in_turn_last ON sign_in_turn (last);
    """,
    // 16: the blockers closed by hand on the blockers page (`TeamStore.closeBlocker`): a
    // blocker is its meeting, the number of the segment it was said in and a hash of its phrase
    // (`BlockerKey`), gone with its meeting; who closed it and when.
    """
    CREATE TABLE blocker_closed (
      meeting_id uuid NOT NULL REFERENCES meeting ON DELETE CASCADE,
      segment integer NOT NULL,
      key text NOT NULL CHECK (key ~ '^[0-9a-f]{16}$'),
      closed_by bigint REFERENCES person ON DELETE SET NULL,
      closed_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (meeting_id, segment, key)
    );
    """,
    // 17: a team's chat (`team webhook`): the incoming webhook its new meetings' digests are
    // posted to, and the posts still to make (`WebhookPoster`), written in the transaction of
    // the push that first stores the meeting: one row per meeting, claimed by one server at a
    // time (`leased_until`), deleted once the receiver said yes.
    """
    ALTER TABLE team ADD COLUMN webhook text;
    CREATE TABLE webhook_post (
      meeting_id uuid PRIMARY KEY REFERENCES meeting ON DELETE CASCADE,
      team_id bigint NOT NULL REFERENCES team ON DELETE CASCADE,
      attempts integer NOT NULL DEFAULT 0,
      due_at timestamptz NOT NULL DEFAULT now(),
      leased_until timestamptz,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_post_due ON webhook_post (due_at);
    """,
    // 18: blockers closed by hand travel to laptops (and come from them, `Push.blockers`):
    // each closing gets a version of the one counter, so pulls see it.
    """
    ALTER TABLE blocker_closed ADD COLUMN version bigint;
    UPDATE blocker_closed SET version = nextval('change_version');
    ALTER TABLE blocker_closed ALTER COLUMN version SET NOT NULL;
    CREATE INDEX blocker_closed_version ON blocker_closed (version);
    """,
  ]

  /// A migration's statements: each ends a line with ";", except inside a function's body
  /// (between `$$` and `$$`), whose own statements do too.
  static func statements(of sql: String) -> [String] {
    var statements: [String] = []
    var current: String?
    for piece in sql.components(separatedBy: ";\n") {
      let statement = current.map { $0 + ";\n" + piece } ?? piece
      if statement.components(separatedBy: "$$").count % 2 == 0 {
        current = statement
      } else {
        current = nil
        if !statement.allSatisfy(\.isWhitespace) { statements.append(statement) }
      }
    }
    return statements + (current.map { [$0] } ?? [])
  }

  /// Applies the migrations this database has not had yet; returns how many ran.
  @discardableResult
  static func migrate(_ client: PostgresClient, logger: Logger) async throws -> Int {
    try await client.inTransaction(logger: logger) { connection in
      try await connection.run(
        "SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
      try await connection.run(
        """
        CREATE TABLE IF NOT EXISTS schema_migration (
          version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
        """, logger: logger)
      var applied = 0
      for try await row in try await connection.run(
        "SELECT coalesce(max(version), 0) FROM schema_migration", logger: logger)
      {
        applied = try row.decode(Int.self)
      }
      var ran = 0
      for (index, sql) in migrations.enumerated() where index + 1 > applied {
        // One statement at a time (the extended protocol takes one).
        for statement in statements(of: sql) {
          try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        try await connection.run(
          "INSERT INTO schema_migration (version) VALUES (\(index + 1))", logger: logger)
        ran += 1
      }
      return ran
    }
  }
}
