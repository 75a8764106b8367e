extension ServerConfiguration {
    /// How ``memoryBudget`` is shared, in bytes.
    public struct MemoryShares: Sendable, Equatable {
        /// Decoded images in the pipeline's memory cache and its animation frame budget (an eighth of this): a
        /// quarter.
        public var imageCache: Int
        /// Encoded answers in memory: an eighth.
        public var encodedCache: Int
        /// Decodes and encodes in progress, admitted by their estimates (``AdmissionController``): the rest.
        public var work: Int
    }

    /// The budget's shares.
    public var memoryShares: MemoryShares {
        let budget = max(0, memoryBudget)
        return MemoryShares(imageCache: budget / 4, encodedCache: budget / 8, work: budget - budget / 4 - budget / 8)
    }

    /// The admission limits these settings give: ``activeLimit`` answers made at once (twice ``concurrency`` when
    /// `nil`), ``queueLimit``, ``queueTimeout``, and the work share of the budget.
    public var admissionLimits: AdmissionController.Limits {
        AdmissionController.Limits(
            activeLimit: max(1, activeLimit ?? 2 * max(1, concurrency)), queueLimit: queueLimit,
            queueTimeout: queueTimeout,
            memoryBudget: memoryShares.work)
    }

    /// ``maxAnimationPixels``, within what the work share of the budget can hold for one animated answer.
    public var animationPixelLimit: Int { max(1, min(maxAnimationPixels, memoryShares.work / 8)) }
}
