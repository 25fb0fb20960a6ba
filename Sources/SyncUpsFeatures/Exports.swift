// Features are used with the architecture core and tagged ids.
@_exported import Architecture
@_exported import Tagged
