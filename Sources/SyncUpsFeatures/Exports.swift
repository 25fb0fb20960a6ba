// Features are used with the architecture core, tagged ids and the store (the models, the
// database and its writes).
@_exported import Architecture
@_exported import SyncUpsStore
@_exported import Tagged
