import GRDB

/// The database's schema, one GRDB migration per change. Never edit a shipped migration: add
/// one. A database that has migrations this list does not know was written by a newer syncups;
/// it is refused, never written (see `SyncUpsDatabase.open`).
enum Schema {
  static var migrator: DatabaseMigrator { migrator(directory: nil) }

  /// The migrations of a database in `directory` (nil: in memory), whose audio files v3 names.
  static func migrator(directory: DataDirectory?) -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: sync-ups, meetings, segments, search") { db in
      try db.execute(sql: v1)
    }
    // Listing meetings reads each one's first segments' text: from this index alone, never
    // the segment rows with their word times (250 meetings: a third of the list's cost, as
    // `make bench-store` measured).
    migrator.registerMigration("v2: segment openings index") { db in
      try db.execute(sql: "CREATE INDEX segment_opening ON segment(meetingId, ordinal, text)")
    }
    // No path from outside is trusted: audio is where the meeting's id says (see AudioNames).
    migrator.registerMigration("v3: derived audio names") { db in
      try deriveAudioNames(db, directory: directory)
    }
    // A meeting saved before its second pass caught up waits here for it (`SentencePass`).
    migrator.registerMigration("v4: sentence passes to finish") { db in
      try db.execute(
        sql: """
          CREATE TABLE sentencePass (
            meetingId TEXT PRIMARY KEY NOT NULL REFERENCES meeting(id) ON DELETE CASCADE
          )
          """)
    }
    // The team sync's outbox, clocks and triggers (`SyncSchema`).
    migrator.registerMigration("v5: sync outbox") { db in try SyncSchema.migrate(db) }
    // Each attendee's voice (`VoiceProfiles`): learned from the meetings they spoke
    // in, gone with the attendee. `meetings` and `seconds` say how much of it is known without
    // reading the model.
    migrator.registerMigration("v6: voice profiles") { db in
      try db.execute(
        sql: """
          CREATE TABLE voiceProfile (
            attendeeId TEXT PRIMARY KEY NOT NULL REFERENCES attendee(id) ON DELETE CASCADE,
            meetings INTEGER NOT NULL,
            seconds DOUBLE NOT NULL,
            model BLOB NOT NULL
          )
          """)
    }
    // Corrections: what the recogniser gave, kept beside a corrected segment, whose
    // own columns (and so the search index, exports and sync) hold the correction. NULL: never
    // corrected.
    migrator.registerMigration("v7: corrections") { db in
      try db.execute(
        sql: """
          ALTER TABLE segment ADD COLUMN originalSpeaker TEXT;
          ALTER TABLE segment ADD COLUMN originalText TEXT;
          ALTER TABLE segment ADD COLUMN originalWords BLOB;
          """)
    }
    // Each attendee's acoustic adaptation: a transform of the recogniser's acoustic model
    // (PocketSphinx's `-mllr` file, as bytes) estimated from their confirmed speech, gone with
    // the attendee. `seconds` says how much speech it was estimated from.
    migrator.registerMigration("v8: speaker adaptations") { db in
      try db.execute(
        sql: """
          CREATE TABLE speakerAdaptation (
            attendeeId TEXT PRIMARY KEY NOT NULL REFERENCES attendee(id) ON DELETE CASCADE,
            seconds DOUBLE NOT NULL,
            transform BLOB NOT NULL
          )
          """)
    }
    // Corrections merge segment by segment in the team sync: each corrected segment of a
    // finished meeting has a clock of its own (`syncClock` field `segment:ORDINAL`).
    migrator.registerMigration("v9: segment clocks") { db in try SyncSchema.segmentClocks(db) }
    // What is learned of people is synced and can be forgotten (`LearnedSchema`).
    migrator.registerMigration("v10: learning synced and forgotten") { db in
      try LearnedSchema.migrate(db)
    }
    // What a late whole-sentence pass may use of what its sync-up learned (`--use-learning`,
    // as bits: 1 its words, 2 its voices), as the recording that left it did.
    migrator.registerMigration("v11: sentence pass learning") { db in
      try db.execute(sql: "ALTER TABLE sentencePass ADD COLUMN learning INTEGER NOT NULL DEFAULT 3")
    }
    // The words each sync-up learns from, counted as they change (`WordCounts`).
    migrator.registerMigration("v12: words counted", migrate: WordCounts.migrate)
    return standUps(neverStuck(migrator))
  }

  /// The stand-up digest's blockers (issue 45): those closed by hand, synced with the team
  /// (`ClosedBlockersSchema`).
  private static func standUps(_ migrator: DatabaseMigrator) -> DatabaseMigrator {
    var migrator = migrator
    migrator.registerMigration(
      "v16: blockers closed by hand", migrate: ClosedBlockersSchema.migrate)
    return learningThatCarries(migrator)
  }

  /// Learning that carries to any team (issue 44): the team's acoustic adaptation, all its
  /// attendees' speech together (`SpeakerAdaptations.swift`); kept on this laptop only, and gone
  /// when any attendee's learning is forgotten, here or pulled.
  private static func learningThatCarries(_ migrator: DatabaseMigrator) -> DatabaseMigrator {
    var migrator = migrator
    migrator.registerMigration("v17: team adaptations") { db in
      try db.execute(
        sql: """
          CREATE TABLE teamAdaptation (
            syncUpId TEXT PRIMARY KEY NOT NULL REFERENCES syncUp(id) ON DELETE CASCADE,
            seconds DOUBLE NOT NULL,
            transform BLOB NOT NULL
          );
          CREATE TRIGGER teamAdaptation_forgotten_insert AFTER INSERT ON attendeeForgotten BEGIN
            DELETE FROM teamAdaptation
              WHERE syncUpId = (SELECT syncUpId FROM attendee WHERE id = new.attendeeId);
          END;
          CREATE TRIGGER teamAdaptation_forgotten_update AFTER UPDATE ON attendeeForgotten BEGIN
            DELETE FROM teamAdaptation
              WHERE syncUpId = (SELECT syncUpId FROM attendee WHERE id = new.attendeeId);
          END;
          """)
    }
    return migrator
  }

  /// A laptop never stuck for good (issue 43): what the server refuses for good is set aside,
  /// and what was stored before the rules held it is repaired.
  private static func neverStuck(_ migrator: DatabaseMigrator) -> DatabaseMigrator {
    var migrator = migrator
    // Documents the team server refused for good wait aside, the rest of the outbox goes on
    // (`SetAside`).
    migrator.registerMigration("v13: documents set aside", migrate: SetAside.migrate)
    // Clocks stored ahead of the drift bound, or unreadable, stamped again now (`ClockRepair`).
    migrator.registerMigration("v14: clocks within the drift", migrate: ClockRepair.migrate)
    // Corrections saved before they kept the push rules, repaired by them (`SegmentRepair`).
    migrator.registerMigration("v15: corrections by the rules", migrate: SegmentRepair.migrate)
    return migrator
  }

  // Ids are lower-case UUID strings (readable in `sqlite3`); dates are seconds since 1970;
  // durations and times are seconds. Deleting a sync-up deletes its attendees, meetings,
  // segments and vocabulary; the search index follows the segments through triggers.
  private static let v1 = """
    CREATE TABLE syncUp (
      id TEXT PRIMARY KEY NOT NULL,
      position INTEGER NOT NULL,
      title TEXT NOT NULL,
      durationMilliseconds INTEGER NOT NULL,
      theme TEXT NOT NULL
    );
    CREATE TABLE attendee (
      id TEXT PRIMARY KEY NOT NULL,
      syncUpId TEXT NOT NULL REFERENCES syncUp(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      name TEXT NOT NULL
    );
    CREATE INDEX attendee_syncUp ON attendee(syncUpId, position);
    CREATE TABLE meeting (
      id TEXT PRIMARY KEY NOT NULL,
      syncUpId TEXT NOT NULL REFERENCES syncUp(id) ON DELETE CASCADE,
      date DOUBLE NOT NULL,
      isFinished BOOLEAN NOT NULL DEFAULT 0,
      length DOUBLE NOT NULL DEFAULT 0,
      audioFile TEXT,
      -- Only when it is not the segments' texts joined by spaces (imported files).
      transcript TEXT,
      -- Kept by the segment triggers, so listing meetings never counts segments.
      segmentCount INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX meeting_syncUp ON meeting(syncUpId, date);
    CREATE INDEX meeting_unfinished ON meeting(isFinished) WHERE isFinished = 0;
    CREATE TABLE segment (
      id INTEGER PRIMARY KEY,
      meetingId TEXT NOT NULL REFERENCES meeting(id) ON DELETE CASCADE,
      ordinal INTEGER NOT NULL,
      speaker TEXT NOT NULL,
      startTime DOUBLE NOT NULL,
      endTime DOUBLE NOT NULL,
      text TEXT NOT NULL,
      -- JSON array of {word, start, end, confidence}.
      words BLOB NOT NULL,
      UNIQUE (meetingId, ordinal)
    );
    CREATE TABLE vocabularyWord (
      syncUpId TEXT NOT NULL REFERENCES syncUp(id) ON DELETE CASCADE,
      word TEXT NOT NULL,
      pronunciation TEXT,
      PRIMARY KEY (syncUpId, word)
    );
    CREATE TABLE setting (
      key TEXT PRIMARY KEY NOT NULL,
      value
    );
    CREATE VIRTUAL TABLE segmentSearch USING fts5(
      text, content = 'segment', content_rowid = 'id', tokenize = 'porter unicode61'
    );
    CREATE TRIGGER segment_insert AFTER INSERT ON segment BEGIN
      INSERT INTO segmentSearch(rowid, text) VALUES (new.id, new.text);
      UPDATE meeting SET segmentCount = segmentCount + 1 WHERE id = new.meetingId;
    END;
    CREATE TRIGGER segment_delete AFTER DELETE ON segment BEGIN
      INSERT INTO segmentSearch(segmentSearch, rowid, text) VALUES ('delete', old.id, old.text);
      UPDATE meeting SET segmentCount = segmentCount - 1 WHERE id = old.meetingId;
    END;
    CREATE TRIGGER segment_update AFTER UPDATE OF text ON segment BEGIN
      INSERT INTO segmentSearch(segmentSearch, rowid, text) VALUES ('delete', old.id, old.text);
      INSERT INTO segmentSearch(rowid, text) VALUES (new.id, new.text);
    END;
    """
}
