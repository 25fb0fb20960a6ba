// As the Composable Architecture does, importing Architecture brings the libraries features are
// written with: dependencies, clocks, identified collections, custom dump, shared state.
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import IdentifiedCollections
@_exported import IssueReporting
@_exported import Sharing
