/// A lesson: a literate script whose `## Exercise…` sections carry an answer (`#>`), hints
/// (`#?`) and wrong answers (`#x`). Everything before an exercise is what a student has
/// run when they reach it, answers of earlier exercises included.
public struct Lesson: Sendable {
    public struct Exercise: Sendable {
        public var title: String
        /// The heading's line in the file.
        public var line: Int
        public var question: [String]
        public var answer: [ScriptCommand]
        public var hints: [String]
        /// Each wrong answer: its commands (usually one).
        public var wrong: [[ScriptCommand]]
        /// Other right answers (`#+`): a result that matches any of them is right too.
        public var alternatives: [[ScriptCommand]] = []
        /// `#= exact`: the result has the answer's columns and no others. Without it, columns
        /// the answer does not name may be there too (a key kept beside the count).
        public var exactColumns = false
        /// Where the exercise starts among the lesson's blocks: the blocks before it set it up.
        public var blockIndex: Int
    }

    public var name: String
    public var blocks: [ScriptBlock]
    public var exercises: [Exercise]
    /// Lines in the file that no exercise holds (a hint or an answer without an exercise).
    public var problems: [String]

    /// `Exercise`, `Exercise 2`, `Exercise: bikes` (not `Exercises`, a section's title).
    public static func isExercise(_ heading: String) -> Bool {
        let h = heading.lowercased()
        guard h.hasPrefix("exercise") else { return false }
        let next = h.dropFirst("exercise".count).first
        return next == nil || next == " " || next == ":" || next?.isNumber == true
    }

    public init(_ source: SourceText) {
        name = source.name
        blocks = LiterateScript.blocks(in: source)
        exercises = []
        problems = []
        var current: Exercise? = nil
        func close() {
            if let e = current { exercises.append(e) }
            current = nil
        }
        for (k, block) in blocks.enumerated() {
            switch block {
            case .heading(_, let text):
                close()
                if Self.isExercise(text) {
                    current = Exercise(title: text, line: Self.line(of: k, in: blocks, source), question: [], answer: [], hints: [], wrong: [], blockIndex: k)
                }
            case .prose(let text):
                // The question is the prose before the answer; prose after it explains it.
                if current != nil && current!.answer.isEmpty { current!.question.append(text) }
            case .answer(let c):
                if current == nil { problems.append("\(source.name):\(c.line): an answer (#>) outside an exercise; put it under a ## Exercise heading") }
                current?.answer.append(c)
            case .hint(let text):
                if current == nil { problems.append("\(source.name): a hint (#?) outside an exercise: \(text)") }
                current?.hints.append(text)
            case .wrong(let c):
                if current == nil { problems.append("\(source.name):\(c[0].line): a wrong answer (#x) outside an exercise") }
                current?.wrong.append(c)
            case .alternative(let c):
                if current == nil { problems.append("\(source.name):\(c[0].line): another answer (#+) outside an exercise") }
                current?.alternatives.append(c)
            case .rule(let words):
                if current == nil { problems.append("\(source.name): a rule (#=) outside an exercise: \(words)") }
                if words == "exact" { current?.exactColumns = true }
                else { problems.append("\(source.name): \(current?.title ?? "a rule"): #= \(words) is no rule utq knows (#= exact)") }
            case .command:
                break
            }
        }
        close()
    }

    /// The line of a heading, found from the command or answer after it (headings carry none).
    static func line(of k: Int, in blocks: [ScriptBlock], _ source: SourceText) -> Int {
        for block in blocks[k...] {
            switch block {
            case .command(let c), .answer(let c): return c.line
            case .wrong(let c), .alternative(let c): return c[0].line
            default: continue
            }
        }
        return 1
    }

    /// "exercise 2 (Exercise 2, line 88)" for messages.
    public func describe(_ index: Int) -> String {
        let e = exercises[index]
        return "\(name):\(e.line): exercise \(index + 1) of \(exercises.count) (\(e.title))"
    }
}
