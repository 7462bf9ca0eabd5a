import Testing
@testable import TouchSystem
#if canImport(Glibc)
import Glibc
#endif

/// Files are written whole or not at all, and failures name the file and the call.
@Suite(.timeLimit(.minutes(10))) struct FileWriterTests {
    let directory: String

    init() {
        var template = Array("/tmp/touchd-writer-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    func contents(_ path: String) throws -> String {
        String(decoding: try FileReader.read(path, limit: 1 << 20), as: UTF8.self)
    }

    func entries() -> [String] { (try? DirectoryListing.names(in: directory, limit: 100)) ?? [] }

    @Test func aFileIsWrittenAndThenReplacedWhole() throws {
        let path = directory + "/picture.svg"
        try FileWriter.write(text: "<svg>first</svg>", to: path)
        #expect(try contents(path) == "<svg>first</svg>")
        try FileWriter.write(text: "<svg>second</svg>", to: path)
        #expect(try contents(path) == "<svg>second</svg>")
        try FileWriter.write([], to: path)
        #expect(try contents(path) == "")
        #expect(entries() == ["picture.svg"], "no temporary file is left behind")
    }

    @Test func aStaleTemporaryFileNeverBlocksAWriteNorIsWrittenThrough() throws {
        let path = directory + "/screen.calibration"
        // What an earlier writer left after a crash, under the names it used (NAME.new-PID), and a
        // link someone placed to have the writer write elsewhere.
        let stale = ["\(path).new-\(getpid())", "\(path).new-1", "\(path).new-0000000000000000"]
        for name in stale { try FileWriter.write(text: "stale", to: name) }
        let elsewhere = directory + "/elsewhere"
        try FileWriter.write(text: "untouched", to: elsewhere)
        #expect(symlink(elsewhere, "\(path).new-link") == 0)
        for round in 0..<20 {
            try FileWriter.write(text: "version \(round)", to: path)
            #expect(try contents(path) == "version \(round)")
        }
        for name in stale { #expect(try contents(name) == "stale") }
        #expect(try contents(elsewhere) == "untouched")
        #expect(Set(entries()) == Set(stale.map { String($0.split(separator: "/").last ?? "") } + ["screen.calibration", "elsewhere", "screen.calibration.new-link"]))
    }

    @Test func temporaryNamesAreNewAndUnpredictable() throws {
        let path = directory + "/state"
        var names: Set<String> = []
        for _ in 0..<50 {
            let (fd, name) = try FileWriter.createTemporary(beside: path, mode: 0o600)
            close(fd)
            #expect(name.hasPrefix(path + ".new-") && name.utf8.count == path.utf8.count + 5 + 16)
            names.insert(name)
        }
        #expect(names.count == 50, "every name is new")
        #expect(FileWriter.directory(of: "/var/lib/touchd/x") == "/var/lib/touchd")
        #expect(FileWriter.directory(of: "/x") == "/" && FileWriter.directory(of: "x") == ".")
    }

    @Test func aFailedWriteNamesTheFileAndLeavesNothing() throws {
        let path = directory + "/missing/picture.svg"
        #expect(throws: FileWriteError(path: path, reason: "No such file or directory (ENOENT) in open")) {
            try FileWriter.write(text: "x", to: path)
        }
        // A directory cannot be replaced by a file: the old one stays, and no temporary file does.
        let folder = directory + "/folder"
        #expect(mkdir(folder, 0o755) == 0)
        #expect(throws: FileWriteError.self) { try FileWriter.write(text: "x", to: folder) }
        #expect(entries() == ["folder"])
    }

    @Test func aProgramGetsItsInputAndTellsItsStatusAndErrors() throws {
        let sh = try #require(ChildProcess.find("sh"))
        let text = String(repeating: "0123456789", count: 100_000)
        let outcome = try ChildProcess.run(sh, ["-c", "wc -c >&2; exit 3"], input: Array(text.utf8))
        #expect(outcome.status == 3)
        #expect(outcome.standardError.trimmingCharacters(in: " \n") == "1000000")
        // A program that reads nothing and exits at once: the write fails quietly, not the caller.
        let early = try ChildProcess.run(sh, ["-c", "exit 0"], input: Array(text.utf8))
        #expect(early.status == 0)
        #expect(ChildProcess.find("no-such-program-anywhere") == nil)
    }

    @Test func aFileIsReplacedOnlyWhenItsProducerSucceeds() throws {
        let path = directory + "/kept.txt"
        try FileWriter.write(text: "before", to: path)
        #expect(throws: FileWriteError(path: path, reason: "no")) {
            try FileWriter.replace(path) { (temporary: String) throws(FileWriteError) in
                try FileWriter.write(text: "half", to: temporary)
                throw FileWriteError(path: path, reason: "no")
            }
        }
        #expect(try contents(path) == "before")
        try FileWriter.replace(path) { (temporary: String) throws(FileWriteError) in try FileWriter.write(text: "after", to: temporary) }
        #expect(try contents(path) == "after")
        #expect(entries() == ["kept.txt"], "no temporary file is left: \(entries())")
    }

    @Test func aPNGThatCannotBeMadeLeavesTheFileThatWasThere() throws {
        guard ChildProcess.find("rsvg-convert") != nil else { return }  // installed by scripts/test.sh
        let path = directory + "/picture.png"
        try FileWriter.write(text: "an earlier picture", to: path)
        #expect(throws: FileWriteError.self) { try PictureFile.write(svg: "this is no SVG", to: path) }
        #expect(try contents(path) == "an earlier picture")
        try PictureFile.write(svg: #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>"#, to: path)
        #expect(try FileReader.read(path, limit: 1 << 20).starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG now")
        #expect(entries().sorted() == ["picture.png"])
    }

    @Test func whetherAPathCanBeWrittenIsKnownBeforehand() throws {
        try FileWriter.checkWritable(directory + "/new.evemu")
        try FileWriter.write(text: "there", to: directory + "/old.evemu")
        try FileWriter.checkWritable(directory + "/old.evemu")
        #expect(try contents(directory + "/old.evemu") == "there")
        #expect(throws: FileWriteError.self) { try FileWriter.checkWritable(directory + "/missing/x.evemu") }
        #expect(throws: FileWriteError.self) { try FileWriter.checkWritable(directory + "/old.evemu/x.evemu") }
        #expect(throws: FileWriteError(path: directory, reason: "it is a directory: expected a file's path")) { try FileWriter.checkWritable(directory) }
        #expect(entries().sorted() == ["old.evemu"], "nothing is left: \(entries())")
    }

    @Test func picturesAreSVGOrPNGByTheirName() throws {
        #expect(try PictureFile.format(of: "a.SVG") == .svg)
        #expect(try PictureFile.format(of: "/x/b.png") == .png)
        #expect(throws: FileWriteError(path: "c.jpg", reason: "the name must end in .svg or .png")) { try PictureFile.format(of: "c.jpg") }
        let path = directory + "/p.svg"
        try PictureFile.write(svg: "<svg/>", to: path)
        #expect(try contents(path) == "<svg/>")
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}

