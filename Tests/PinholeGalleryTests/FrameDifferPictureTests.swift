import PinholeGallery
import PinholeTestSupport
import Testing

/// What ``FrameDiffer`` writes for pictures drawn with an image protocol: sixel pictures are erased by text written
/// over them, kitty pictures live above the text.
@Suite(.timeLimit(scaledMinutes: 1))
struct FrameDifferPictureTests {
    static func picture(_ mode: GraphicsMode, _ payload: String, rows: Int = 2) -> TerminalPicture {
        TerminalPicture(
            mode: mode, columns: 4, rows: rows, payload: payload, pixelOffset: (0, 0), pixelColumns: 4, pixelRows: rows)
    }

    static let blank = ["    ", "    ", "    ", "    ", "    "]

    @Test func sixelPictureIsDrawnOnceThenAgainOnlyWhenTextCoversIt() {
        // Given a sixel picture on lines 2…3 of a five-line frame
        var differ = FrameDiffer(mode: .sixel)
        let placement = Frame.Placement(row: 1, column: 0, picture: Self.picture(.sixel, "<A>"))
        let first = differ.diff(Frame(lines: Self.blank, placements: [placement]))
        // Then it is drawn after the text, at its cell
        #expect(first.hasSuffix("\u{1B}[2;1H<A>"))
        #expect(differ.drawnPictureCount == 1)
        // When a line outside the picture changes, the picture is not sent again
        var lines = Self.blank
        lines[4] = "done"
        #expect(differ.diff(Frame(lines: lines, placements: [placement])) == "\u{1B}[5;1Hdone")
        // When a line under the picture is rewritten (which erases that part of it), it is drawn again
        lines[2] = "abcd"
        let third = differ.diff(Frame(lines: lines, placements: [placement]))
        #expect(third == "\u{1B}[3;1Habcd\u{1B}[2;1H<A>")
    }

    @Test func linesUnderAVanishedSixelPictureAreRewrittenToEraseIt() {
        // Given a sixel picture on lines 2…3
        var differ = FrameDiffer(mode: .sixel)
        let placement = Frame.Placement(row: 1, column: 0, picture: Self.picture(.sixel, "<A>"))
        _ = differ.diff(Frame(lines: Self.blank, placements: [placement]))
        // When the next frame has the same (blank) text and no picture
        let output = differ.diff(Frame(lines: Self.blank, placements: []))
        // Then its lines are written again, which erases the picture's pixels
        #expect(output == "\u{1B}[2;1H    \u{1B}[3;1H    ")
        #expect(differ.drawnPictureCount == 0)
    }

    @Test func movedSixelPictureErasesItsOldPlaceAndIsDrawnAtTheNew() {
        var differ = FrameDiffer(mode: .sixel)
        let picture = Self.picture(.sixel, "<A>")
        _ = differ.diff(Frame(lines: Self.blank, placements: [Frame.Placement(row: 0, column: 0, picture: picture)]))
        // When it moves two lines down
        let output = differ.diff(
            Frame(lines: Self.blank, placements: [Frame.Placement(row: 2, column: 0, picture: picture)]))
        // Then its old lines are rewritten and it is drawn at the new place
        #expect(output == "\u{1B}[1;1H    \u{1B}[2;1H    \u{1B}[3;1H<A>")
    }

    @Test func kittyPicturesThatCannotTakeAnIDAreDeletedAndPlacedAgainWhenTheSetChanges() {
        // Given a kitty picture whose payload is not a bare ESC_G command (as one wrapped for a multiplexer)
        var differ = FrameDiffer(mode: .kitty)
        let first = Frame.Placement(row: 0, column: 0, picture: Self.picture(.kitty, "<K1>"))
        let second = Frame.Placement(row: 2, column: 0, picture: Self.picture(.kitty, "<K2>"))
        let initial = differ.diff(Frame(lines: Self.blank, placements: [first]))
        #expect(initial.hasSuffix("\u{1B}_Ga=d,d=A,q=2\u{1B}\\\u{1B}[1;1H<K1>"))
        // When text changes under it, nothing is sent for pictures (they live above the text)
        var lines = Self.blank
        lines[0] = "abcd"
        #expect(differ.diff(Frame(lines: lines, placements: [first])) == "\u{1B}[1;1Habcd")
        // When a second picture appears, all are deleted and both placed
        let output = differ.diff(Frame(lines: lines, placements: [first, second]))
        #expect(output == "\u{1B}_Ga=d,d=A,q=2\u{1B}\\\u{1B}[1;1H<K1>\u{1B}[3;1H<K2>")
        // When the last one goes away, they are deleted and nothing is placed
        #expect(differ.diff(Frame(lines: lines, placements: [])) == "\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
    }

    @Test func kittyPictureReplacedAtItsPlaceIsTheOnlyOneSentAndTheOldOneDeletedByItsID() {
        // Given two kitty pictures drawn by libchafa (bare ESC_G commands), placed with ids 1 and 2
        var differ = FrameDiffer(mode: .kitty)
        let top = Frame.Placement(row: 0, column: 0, picture: Self.picture(.kitty, "\u{1B}_Ga=T;<F0>\u{1B}\\"))
        let other = Frame.Placement(row: 2, column: 0, picture: Self.picture(.kitty, "\u{1B}_Ga=T;<B>\u{1B}\\"))
        let initial = differ.diff(Frame(lines: Self.blank, placements: [top, other]))
        #expect(
            initial.hasSuffix(
                "\u{1B}_Ga=d,d=A,q=2\u{1B}\\\u{1B}[1;1H\u{1B}_Gi=1,q=2,a=T;<F0>\u{1B}\\"
                    + "\u{1B}[3;1H\u{1B}_Gi=2,q=2,a=T;<B>\u{1B}\\"))
        // When the top picture's next animation frame takes its place
        let next = Frame.Placement(row: 0, column: 0, picture: Self.picture(.kitty, "\u{1B}_Ga=T;<F1>\u{1B}\\"))
        let output = differ.diff(Frame(lines: Self.blank, placements: [next, other]))
        // Then only it is sent (id 3), then the old one is deleted by its id; the other picture is left alone
        #expect(output == "\u{1B}[1;1H\u{1B}_Gi=3,q=2,a=T;<F1>\u{1B}\\\u{1B}_Ga=d,d=I,i=1,q=2\u{1B}\\")
        #expect(differ.drawnPictureCount == 1)
        // When the other picture goes away, it alone is deleted; an unchanged frame sends nothing
        #expect(differ.diff(Frame(lines: Self.blank, placements: [next])) == "\u{1B}_Ga=d,d=I,i=2,q=2\u{1B}\\")
        #expect(differ.diff(Frame(lines: Self.blank, placements: [next])).isEmpty)
    }

    @Test func sixelPictureReplacedByOneOfTheSameCellsIsPaintedOverWithoutErasingItsLines() {
        // Given two sixel pictures side by side on lines 1…2
        var differ = FrameDiffer(mode: .sixel)
        let left = Frame.Placement(row: 0, column: 0, picture: Self.picture(.sixel, "<F0>"))
        let right = Frame.Placement(row: 0, column: 4, picture: Self.picture(.sixel, "<R>"))
        _ = differ.diff(Frame(lines: Self.blank, placements: [left, right]))
        // When the left one shows its next animation frame, in the same cells
        let next = Frame.Placement(row: 0, column: 0, picture: Self.picture(.sixel, "<F1>"))
        let output = differ.diff(Frame(lines: Self.blank, placements: [next, right]))
        // Then the new frame alone is painted over the old one: no line rewritten, the right picture not sent
        #expect(output == "\u{1B}[1;1H<F1>")
        #expect(differ.changedLineCount == 0 && differ.drawnPictureCount == 1)
        // When it is replaced by a smaller picture instead, its lines are erased and the right one drawn again
        let smaller = Frame.Placement(row: 0, column: 0, picture: Self.picture(.sixel, "<S>", rows: 1))
        let shrunk = differ.diff(Frame(lines: Self.blank, placements: [smaller, right]))
        #expect(shrunk == "\u{1B}[1;1H    \u{1B}[2;1H    \u{1B}[1;1H<S>\u{1B}[1;5H<R>")
    }

    @Test func listWithSixelThumbnailsPlacesEachPictureBesideItsText() {
        // Given two list rows whose thumbnails are sixel pictures of the thumbnail box (12×4 cells at 80 columns)
        let layout = ScreenLayout(size: TerminalSize(columns: 80, rows: 24))
        let picture = TerminalPicture(
            mode: .sixel, columns: 12, rows: 4, payload: "<S>", pixelOffset: (1, 0), pixelColumns: 10, pixelRows: 4)
        let rows = (0..<2).map {
            ScreenState.Row(index: $0, title: "Photo \($0 + 1)", date: "Mar 4, 2026", thumbnail: .image(picture))
        }
        let state = ScreenState(title: "T", content: .list(.init(rows: rows, totalCount: 2, favouriteCount: 0)))
        // When the frame is built
        let frame = ScreenRenderer.frame(state, layout: layout)
        // Then each picture sits at the thumbnail column (3) plus its offset, on its row's first line, over spaces
        #expect(frame.placements.map(\.row) == [1, 6])
        #expect(frame.placements.map(\.column) == [4, 4])
        #expect(frame.lines[1].contains("Photo 1") && !frame.lines[1].contains("<S>"))
    }

    @Test func movingTheSelectionInASixelGridSendsNoPictureAgain() {
        // Given a grid of six sixel tiles, the first selected, already on screen
        let layout = ScreenLayout(size: TerminalSize(columns: 120, rows: 40), mode: .grid)
        let picture = TerminalPicture(
            mode: .sixel, columns: layout.tileColumns, rows: layout.tileRows, payload: "<S>", pixelOffset: (0, 0),
            pixelColumns: layout.tileColumns, pixelRows: layout.tileRows)
        func state(selected: Int) -> ScreenState {
            let rows = (0..<6).map {
                ScreenState.Row(
                    index: $0, title: "Photo \($0 + 1)", date: "", isSelected: $0 == selected,
                    thumbnail: .image(picture))
            }
            return ScreenState(
                title: "T", content: .grid(.init(rows: rows, totalCount: 6, favouriteCount: 0)), pictureMode: .sixel)
        }
        var differ = FrameDiffer(mode: .sixel)
        _ = differ.diff(ScreenRenderer.frame(state(selected: 0), layout: layout))
        #expect(differ.drawnPictureCount == 6)
        // When the selection moves to the second tile
        _ = differ.diff(ScreenRenderer.frame(state(selected: 1), layout: layout))
        // Then only the caption line is written (the selection shows there), and no picture is sent again
        #expect(differ.changedLineCount == 2, "the caption line and the header's position")
        #expect(differ.drawnPictureCount == 0)
    }

    @Test func aTilesPictureArrivingInASixelGridIsTheOnlyOneSent() {
        // Given a sixel grid of two tiles: the first drawn, the second still loading
        let layout = ScreenLayout(size: TerminalSize(columns: 120, rows: 40), mode: .grid)
        let picture = TerminalPicture(
            mode: .sixel, columns: layout.tileColumns, rows: layout.tileRows, payload: "<S>", pixelOffset: (0, 0),
            pixelColumns: layout.tileColumns, pixelRows: layout.tileRows)
        func state(_ second: ScreenState.Thumbnail) -> ScreenState {
            let rows = [
                ScreenState.Row(index: 0, title: "A", date: "", isSelected: true, thumbnail: .image(picture)),
                ScreenState.Row(index: 1, title: "B", date: "", thumbnail: second),
            ]
            return ScreenState(
                title: "T", content: .grid(.init(rows: rows, totalCount: 2, favouriteCount: 0)), pictureMode: .sixel)
        }
        var differ = FrameDiffer(mode: .sixel)
        _ = differ.diff(ScreenRenderer.frame(state(.loading), layout: layout))
        // When the second picture arrives
        let output = differ.diff(ScreenRenderer.frame(state(.image(picture)), layout: layout))
        // Then no text line changes and only the new picture is sent
        #expect(differ.changedLineCount == 0 && differ.drawnPictureCount == 1)
        #expect(output == "\u{1B}[2;22H<S>", "tile 2 starts at column 21 (0-based), line 1")
    }
}
