/// The recency order of ``LRUTable``: a doubly linked list threaded through an array of nodes.
///
/// Kept apart from the generic keys and values, so reordering touches only this small,
/// non-generic array (8 bytes of links and 8 of cost per node) and compiles to plain loads and
/// stores even where ``LRUTable`` runs unspecialised. Freed nodes are reused through a free list.
@usableFromInline
struct LRUList {
    @usableFromInline
    struct Node {
        /// The next newer node; in a free node, the next free node.
        @usableFromInline var newer: Int32
        /// The next older node.
        @usableFromInline var older: Int32
        /// The cost of the entry this node orders.
        @usableFromInline var cost: Int

        @inlinable init(newer: Int32, older: Int32, cost: Int) {
            self.newer = newer
            self.older = older
            self.cost = cost
        }
    }

    /// Marks the end of a chain.
    @usableFromInline static let end: Int32 = -1

    @usableFromInline var nodes: [Node] = []
    @usableFromInline var newestNode = LRUList.end
    @usableFromInline var oldestNode = LRUList.end
    @usableFromInline var firstFree = LRUList.end

    /// The sum of the costs of the nodes in use.
    @usableFromInline var totalCost = 0

    /// Creates an empty list.
    @inlinable init() {}

    /// The least recently used node, if any.
    @inlinable var oldest: Int32? { oldestNode == Self.end ? nil : oldestNode }

    /// The nodes from the most to the least recently used.
    @inlinable var newestFirst: [Int32] {
        var order: [Int32] = []
        var node = newestNode
        while node != Self.end {
            order.append(node)
            node = nodes[Int(node)].older
        }
        return order
    }

    /// Takes a node (a free one when there is one) and makes it the newest.
    @inlinable mutating func insertNewest(cost: Int) -> Int32 {
        let node: Int32
        if firstFree == Self.end {
            node = Int32(nodes.count)
            nodes.append(Node(newer: Self.end, older: Self.end, cost: cost))
        } else {
            node = firstFree
            firstFree = nodes[Int(node)].newer
            nodes[Int(node)] = Node(newer: Self.end, older: Self.end, cost: cost)
        }
        totalCost += cost
        linkAsNewest(node)
        return node
    }

    /// Changes the cost of `node` and makes it the newest.
    @inlinable mutating func update(_ node: Int32, cost: Int) {
        totalCost += cost - nodes[Int(node)].cost
        nodes[Int(node)].cost = cost
        moveToNewest(node)
    }

    /// Makes `node` the newest.
    @inlinable mutating func moveToNewest(_ node: Int32) {
        guard node != newestNode else { return }
        unlink(node)
        linkAsNewest(node)
    }

    /// Takes `node` out of the order and frees it for reuse.
    @inlinable mutating func remove(_ node: Int32) {
        unlink(node)
        totalCost -= nodes[Int(node)].cost
        nodes[Int(node)] = Node(newer: firstFree, older: Self.end, cost: 0)
        firstFree = node
    }

    @inlinable mutating func linkAsNewest(_ node: Int32) {
        nodes[Int(node)].older = newestNode
        nodes[Int(node)].newer = Self.end
        if newestNode != Self.end { nodes[Int(newestNode)].newer = node }
        newestNode = node
        if oldestNode == Self.end { oldestNode = node }
    }

    @inlinable mutating func unlink(_ node: Int32) {
        let newer = nodes[Int(node)].newer
        let older = nodes[Int(node)].older
        if newer != Self.end { nodes[Int(newer)].older = older } else { newestNode = older }
        if older != Self.end { nodes[Int(older)].newer = newer } else { oldestNode = newer }
    }
}
