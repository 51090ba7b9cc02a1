// Module SQLiteLedger.
