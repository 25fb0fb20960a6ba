// SyncUpsStore is the laptop's store: one SQLite file per data directory, read with fetch
// requests and written only through functions named for what a person (or a pull from the team
// server) does, each one transaction that applies the rules. It owns the models (its records
// are the models, so they live here, and SyncUpsFeatures re-exports this module for the
// reducers and the command line), the schema and its migrations, the records, the requests,
// every write, and the team sync's tables (outbox, clocks, parked meetings, cursor).
@_exported import IdentifiedCollections
@_exported import Sharing
@_exported import SharingGRDB
@_exported import Tagged
