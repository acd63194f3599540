import Foundation
import Testing

/// The help of every command, pinned: a change to it is a change users see.
struct HelpTextTests {
    static let expected: [String: String] = [
        "logbook": """
        OVERVIEW: Inspect, verify, dump and replay Logbook stores, without the
        application's code.

        A store is a directory of segment files. Reading commands work while another
        process holds the store open for writing.

        USAGE: logbook <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          demo                    Tell the SampleTrips story: write version 1, open it
                                  with version 3 through the plan.
          info                    Show a store's segments, batches, events and sequence
                                  range.
          dump                    Print the events of a store.
          history                 Print the history transactions of a store, with their
                                  changes and values.
          replay                  Rebuild a store's objects from its log and print them
                                  with their relationships.
          tail                    Print the last events of a store, and with --follow
                                  the ones appended after.
          verify                  Check every batch of a store.
          salvage                 Copy the sound part of a damaged store into a new
                                  store.
          checkpoint              Write a checkpoint of a store at its last save.
          prune-external          Remove the external value files no batch of a store
                                  refers to.
          copy                    Copy a store between a directory and PostgreSQL, or
                                  into a new directory.

          See 'logbook help <subcommand>' for detailed help.

        """,
        "info": """
        OVERVIEW: Show a store's segments, batches, events and sequence range.

        Counts the batches of each log format version: a store written before format 2
        keeps its version 1 batches after newer ones are appended. For a store written
        by the model layer, also lists the schema versions recorded in the log, with
        their fingerprints, and the migration stages that have run; the point the store
        recorded as durable; the checkpoints, with their sequence number, size and
        schema version; the tails earlier opens moved into quarantine; and whether the
        store is damaged or ends in a torn write.

        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command could
        not run (no store, unreadable, unknown entity); 3 every batch is sound but an
        incomplete batch (a torn write) ends the log; 64 bad arguments.

        USAGE: logbook info <store>

        ARGUMENTS:
          <store>                 The store directory, or a postgresql:// URL.

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "history": """
        OVERVIEW: Print the history transactions of a store, with their changes and
        values.

        Each save is one transaction, named by its token: the sequence number of its
        last event. Changes are shown as the newest schema the store has recorded sees
        them, one per object: an insert with the values it wrote, an update with the
        attributes and relationships it wrote (and the values of the attributes), a
        delete with the values of its attributes marked .preserveValueOnDeletion.
        Transactions saved before format version 4 have no time or author. With
        --format json, each transaction is one JSON object on its own line (NDJSON)
        with token, timestamp, author and changes.

        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command could
        not run (no store, unreadable, unknown entity); 3 every batch is sound but an
        incomplete batch (a torn write) ends the log; 64 bad arguments.

        USAGE: logbook history <store> [--format <format>] [--after <after>]

        ARGUMENTS:
          <store>                 The store directory, or a postgresql:// URL.

        OPTIONS:
          --format <format>       Output format: text or json. (values: text, json;
                                  default: text)
          --after <after>         Print only the transactions after this token.
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "dump": """
        OVERVIEW: Print the events of a store.

        Events are shown as the newest schema the store has recorded sees them (renamed
        attributes under their new names, removed ones left out), unless --raw. With
        --format json, each event is one JSON object on its own line (NDJSON) with seq,
        schemaVersion, kind, entity, id, attributes and relationships.

        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command could
        not run (no store, unreadable, unknown entity); 3 every batch is sound but an
        incomplete batch (a torn write) ends the log; 64 bad arguments.

        USAGE: logbook dump <store> [--format <format>] [--raw] [--from <from>] [--to <to>] [--entity <entity>]

        ARGUMENTS:
          <store>                 The store directory, or a postgresql:// URL.

        OPTIONS:
          --format <format>       Output format: text or json. (values: text, json;
                                  default: text)
          --raw                   Show events as written, without upcasting.
          --from <from>           The first sequence number to print.
          --to <to>               The last sequence number to print.
          --entity <entity>       Only events about this entity.
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "replay": """
        OVERVIEW: Rebuild a store's objects from its log and print them with their
        relationships.

        Replays the log with the same upcasting and projection code as the library, at
        the newest schema the store recorded, and prints every live object: its
        attributes and the identifiers it is related to.

        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command could
        not run (no store, unreadable, unknown entity); 3 every batch is sound but an
        incomplete batch (a torn write) ends the log; 64 bad arguments.

        USAGE: logbook replay <store> [--entity <entity>] [--as-of <as-of>] [--format <format>]

        ARGUMENTS:
          <store>                 The store directory, or a postgresql:// URL.

        OPTIONS:
          --entity <entity>       Only objects of this entity and of the entities that
                                  inherit from it.
          --as-of <as-of>         Show the store as it was right after this sequence
                                  number.
          --format <format>       Output format: text or json. (values: text, json;
                                  default: text)
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "tail": """
        OVERVIEW: Print the last events of a store, and with --follow the ones appended
        after.

        Reads while another process writes: with --follow, new events are printed as
        the writer appends them, whole batches at a time, until the tool is
        interrupted.

        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command could
        not run (no store, unreadable, unknown entity); 3 every batch is sound but an
        incomplete batch (a torn write) ends the log; 64 bad arguments.

        USAGE: logbook tail <store> [--lines <lines>] [--follow] [--format <format>]

        ARGUMENTS:
          <store>                 The store directory, or a postgresql:// URL.

        OPTIONS:
          -n, --lines <lines>     How many of the last events to print first. (default:
                                  10)
          --follow                Keep printing events as they are appended.
          --format <format>       Output format: text or json. (values: text, json;
                                  default: text)
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "verify": """
        OVERVIEW: Check every batch of a store.

        Checks the framing, checksum, decompression and event framing of every batch,
        that every event of a store written by the model layer decodes, and that
        sequence numbers run without a gap, and that the log reaches the point the
        store recorded as durable. Prints `sound` only when every batch checks out.
        Names each damaged segment and byte offset; reports an incomplete batch at the
        very end (a write cut short by a crash, which the next open moves into the
        store's quarantine directory, or one still being written) with its offset and
        size; lists the tails earlier opens moved into quarantine. Checks each
        checkpoint against a replay of the log up to its sequence number and names the
        first difference (entity, identifier, attribute); a damaged or differing
        checkpoint counts as damage. Checks every file of an `.externalStorage` value
        the log refers to (length, CRC32C and SHA-256), naming a missing or damaged one
        with the event that refers to it; lists the files no batch refers to, which are
        harmless.

        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command could
        not run (no store, unreadable, unknown entity); 3 every batch is sound but an
        incomplete batch (a torn write) ends the log; 64 bad arguments.

        USAGE: logbook verify <store> [--checksums-only]

        ARGUMENTS:
          <store>                 The store directory, or a postgresql:// URL.

        OPTIONS:
          --checksums-only        Check headers, checksums and sequence numbers only,
                                  without decompressing payloads or decoding events:
                                  several times faster, and still catches every flipped
                                  bit the checksum covers.
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "demo": """
        OVERVIEW: Tell the SampleTrips story: write version 1, open it with version 3
        through the plan.

        Writes the trips of the talk's first release (names not yet unique, dates named
        start_date and end_date) to a new store, shows what the migration plan would
        do, opens the store with the current models through SampleTripsMigrationPlan,
        and prints the trips as they are now.

        With --dry-run, STORE is an existing SampleTrips store (version 1, 2 or 3): the
        demo prints what opening it through SampleTripsMigrationPlan would do (the
        stages that would run, what they rename, add, remove and fold) and stops. The
        store is only read: it is not opened for writing and not a byte of it changes.

        USAGE: logbook demo <store> [--dry-run]

        ARGUMENTS:
          <store>                 A path for the new store; it must not exist yet (with
                                  --dry-run, an existing store).

        OPTIONS:
          --dry-run               Preview the migration of an existing store instead;
                                  write nothing.
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "salvage": """
        OVERVIEW: Copy the sound part of a damaged store into a new store.

        Reads every batch of DAMAGED in order and copies each whole batch whose
        checksum, framing and events are sound and whose sequence numbers continue the
        kept ones into a new store at NEW. Copying stops at the first damage, so that
        the new store runs without a gap; what follows is read and listed as dropped.
        Prints one line for each run of kept batches and for each dropped stretch
        (segment, byte offset, sequence numbers, event count, reason), then a summary.

        DAMAGED is only read, never changed. NEW must not exist or must be an empty
        directory; it is written with durable appends in a temporary directory beside
        it that is renamed into place at the end, so a salvage that fails or is
        interrupted leaves nothing under NEW's name.

        Tails that opens of DAMAGED moved into its quarantine directory are listed, not
        copied: they follow the log's last batch.

        Exit status: 0 everything was kept; 1 something was dropped (the store is
        damaged); 2 the salvage could not be done (DAMAGED is not a store, NEW exists,
        a read or write failed); 3 only an incomplete batch at the end (a torn write)
        was dropped; 64 bad arguments.

        USAGE: logbook salvage <damaged> <new>

        ARGUMENTS:
          <damaged>               The damaged store; it is only read.
          <new>                   A path for the new store; it must not exist yet or be
                                  an empty directory.

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "checkpoint": """
        OVERVIEW: Write a checkpoint of a store at its last save.

        Replays the log at the schema it recorded last and writes the objects into
        checkpoints/<sequence>.checkpoint, so that the next open replays only what
        follows; keeps the two newest checkpoints. Takes the store's writer lock: the
        store must not be open for writing elsewhere. An app opened through a migration
        plan uses the checkpoint only when the plan's earlier versions rename nothing
        the recorded schemas do not.

        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command could
        not run (no store, unreadable, unknown entity); 3 every batch is sound but an
        incomplete batch (a torn write) ends the log; 64 bad arguments.

        USAGE: logbook checkpoint <store>

        ARGUMENTS:
          <store>                 The store directory, or a postgresql:// URL.

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "prune-external": """
        OVERVIEW: Remove the external value files no batch of a store refers to.

        A save writes the files of its `.externalStorage` values before its batch: one
        that failed, or a process that ended, in between leaves files no batch refers
        to, which are harmless (`verify` lists them). This command removes them, and
        the temporary files of writes cut short, and prints each path. Takes the
        store's writer lock, so that no save is writing a file meanwhile: the store
        must not be open for writing elsewhere. A file any batch refers to is never
        removed.

        Exit status: 0 the store is sound; 1 the store is damaged; 2 the command could
        not run (no store, unreadable, unknown entity); 3 every batch is sound but an
        incomplete batch (a torn write) ends the log; 64 bad arguments.

        USAGE: logbook prune-external <store>

        ARGUMENTS:
          <store>                 The store directory, or a postgresql:// URL.

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.


        """,
        "copy": """
        OVERVIEW: Copy a store between a directory and PostgreSQL, or into a new
        directory.

        When SOURCE or DEST is a PostgreSQL URL (postgresql://...), runs
        `logbook-postgres copy SOURCE DEST` (beside logbook, or on the PATH), which
        copies the store batch for batch, and passes on its output and exit status: the
        logbook tool links no database driver. Into PostgreSQL the store name must be
        new, or hold what an earlier copy of the same directory appended; into a
        directory, the directory must be new or empty.

        Between two directories, copies every batch of SOURCE, with its events and
        sequence numbers (and the value files its batches refer to), into DEST, which
        must not exist or be empty; the copy is written in a temporary directory beside
        DEST and renamed into place. SOURCE is only read and may be open in a writer. A
        store whose history was deleted is copied from its base, numbered from 1, so
        its history tokens differ in the copy. A damaged SOURCE is not copied: `logbook
        salvage` copies its sound part. An incomplete batch at the end (a torn write,
        or one still being written) is left out, as an open would leave it.

        Exit status: 0 copied; 1 the source is damaged; 2 the copy could not run (no
        store, the destination holds a store, the server could not be reached, no
        logbook-postgres); 3 copied, but an incomplete batch at the end of SOURCE was
        left out; 64 bad arguments.

        USAGE: logbook copy <source> <destination>

        ARGUMENTS:
          <source>                The store to copy: a directory, or a PostgreSQL URL.
          <destination>           Where to copy it: a PostgreSQL URL, or a new
                                  directory.

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.


        """,
    ]

    @Test(arguments: [
        "logbook", "info", "dump", "history", "replay", "tail", "verify", "demo", "salvage", "checkpoint",
        "prune-external", "copy",
    ])
    func helpIsPinned(command: String) throws {
        let arguments = command == "logbook" ? ["--help"] : [command, "--help"]
        let outcome = try ToolProcess.run(arguments)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == Self.expected[command])
    }
}
